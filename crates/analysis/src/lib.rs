//! Setup analysis. So far: the embedded COCO object detector and the upload pipeline.

pub mod detector;
pub mod pipeline;
