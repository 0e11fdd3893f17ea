//! The shared calibration photos (`$SETUPIQ_EVAL_PHOTOS`, in development `../shared/photos`)
//! that the analyzer's and the analysis endpoint's photo tests read (never copied into
//! the project).

use std::path::{Path, PathBuf};

use image::{DynamicImage, ImageDecoder, ImageReader, RgbImage};

/// The photo folder, or `None` after a loud "SKIPPED" message naming `what` was skipped.
///
/// With `SETUPIQ_REQUIRE_PHOTOS=1` (set by CI when it has the photos) a missing folder is a
/// failure instead: a photo test must never pass by not running.
pub fn eval_photos(what: &str) -> Option<PathBuf> {
    let folder = std::env::var_os("SETUPIQ_EVAL_PHOTOS").map(PathBuf::from).filter(|dir| dir.is_dir());
    if folder.is_none() {
        skipped(
            &format!(
                "SETUPIQ_EVAL_PHOTOS ({:?}) is not a folder of photos",
                std::env::var_os("SETUPIQ_EVAL_PHOTOS")
            ),
            what,
        );
    }
    folder
}

/// The labelled photos of the analyzer issue (`labels.tsv`, `pairs.tsv`): `photos-extra`
/// beside the calibration photos; `None` (or a failure) as for [`eval_photos`].
pub fn labelled_photos(what: &str) -> Option<PathBuf> {
    let folder = eval_photos(what)?.parent()?.join("photos-extra");
    if folder.join("labels.tsv").is_file() {
        return Some(folder);
    }
    skipped(&format!("{} has no labels.tsv", folder.display()), what);
    None
}

/// Says loudly that `what` was skipped because `why`, or fails under `SETUPIQ_REQUIRE_PHOTOS=1`.
fn skipped(why: &str, what: &str) {
    let required = std::env::var("SETUPIQ_REQUIRE_PHOTOS").is_ok_and(|v| v == "1");
    assert!(!required, "SETUPIQ_REQUIRE_PHOTOS=1 but {why}: cannot {what}");
    eprintln!("SKIPPED: {why}: set SETUPIQ_EVAL_PHOTOS to the shared photo folder to {what}");
}

/// A photo file as a camera app shows it: decoded and turned upright by its EXIF orientation.
pub fn upright_photo(path: &Path) -> RgbImage {
    let mut decoder = ImageReader::open(path)
        .and_then(|r| r.with_guessed_format())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .into_decoder()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let orientation = decoder.orientation().unwrap();
    let mut image = DynamicImage::from_decoder(decoder).unwrap();
    image.apply_orientation(orientation);
    image.to_rgb8()
}
