//! What the examples share: the labelled photos of a shared folder (`labels.tsv`) and the
//! source repository of each (`SOURCES.md`), which cross-validation groups by.

use std::collections::HashMap;
use std::error::Error;
use std::path::Path;

use serde_json::{Value, json};

/// A photo's `labels.tsv` columns by name.
pub type Labels = serde_json::Map<String, Value>;

/// `(file, labels)` for every photo of `folder`: from `labels.tsv`, or from the file names.
pub fn labelled_photos(folder: &Path) -> Result<Vec<(String, Labels)>, Box<dyn Error>> {
    if let Ok(table) = std::fs::read_to_string(folder.join("labels.tsv")) {
        let mut lines = table.lines();
        let header: Vec<&str> = lines.next().ok_or("empty labels.tsv")?.split('\t').collect();
        return Ok(lines
            .filter(|line| !line.trim().is_empty())
            .map(|line| {
                let cols: Vec<&str> = line.split('\t').collect();
                let labels =
                    header.iter().zip(&cols).skip(1).map(|(k, v)| ((*k).to_owned(), json!(v))).collect();
                (cols[0].to_owned(), labels)
            })
            .collect());
    }
    let mut files: Vec<String> = std::fs::read_dir(folder)?
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|f| f.ends_with(".jpg") || f.ends_with(".jpeg") || f.ends_with(".png"))
        .collect();
    files.sort();
    Ok(files
        .into_iter()
        .map(|file| {
            let kind = if file.starts_with("setup") {
                "setup"
            } else if file.starts_with("neg") {
                "negative"
            } else {
                "edge"
            };
            let labels = [("kind".to_owned(), json!(kind))].into_iter().collect();
            (file, labels)
        })
        .collect())
}

/// The source repository of each photo, from the folder's `SOURCES.md` (a table whose rows
/// start with the file name and then, after an optional kind column, `owner/name`).
pub fn repositories(folder: &Path) -> HashMap<String, String> {
    let sources = std::fs::read_to_string(folder.join("SOURCES.md")).unwrap_or_default();
    sources
        .lines()
        .filter_map(|line| {
            let cols: Vec<&str> = line.split('|').map(str::trim).filter(|c| !c.is_empty()).collect();
            let file = *cols.first()?;
            let is_photo = [".jpg", ".jpeg", ".png"].iter().any(|ext| file.ends_with(ext));
            let repo = cols.iter().skip(1).take(2).find(|c| c.contains('/') && !c.contains(' '))?;
            is_photo.then(|| (file.to_owned(), (*repo).to_owned()))
        })
        .collect()
}
