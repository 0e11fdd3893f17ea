//! Setup analysis. So far: the embedded COCO object detector.

pub mod detector;
