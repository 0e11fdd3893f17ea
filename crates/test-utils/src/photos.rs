//! The shared calibration photos (`$SETUPIQ_EVAL_PHOTOS`, in development `../shared/photos`)
//! that the analyzer's and the analysis endpoint's photo tests read (never copied into
//! the project).

use std::path::PathBuf;

/// The photo folder, or `None` after a loud "SKIPPED" message naming `what` was skipped.
///
/// With `SETUPIQ_REQUIRE_PHOTOS=1` (set by CI when it has the photos) a missing folder is a
/// failure instead: a photo test must never pass by not running.
pub fn eval_photos(what: &str) -> Option<PathBuf> {
    let folder = std::env::var_os("SETUPIQ_EVAL_PHOTOS").map(PathBuf::from).filter(|dir| dir.is_dir());
    if folder.is_none() {
        let required = std::env::var("SETUPIQ_REQUIRE_PHOTOS").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "SETUPIQ_REQUIRE_PHOTOS=1 but SETUPIQ_EVAL_PHOTOS ({:?}) is not a folder of photos: cannot {what}",
            std::env::var_os("SETUPIQ_EVAL_PHOTOS")
        );
        eprintln!("SKIPPED: set SETUPIQ_EVAL_PHOTOS to the shared photo folder to {what}");
    }
    folder
}
