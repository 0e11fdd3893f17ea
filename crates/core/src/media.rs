//! The media store: user uploads (profile pictures now; setup photos and thumbnails later)
//! kept under validated keys such as `avatars/5f0c….jpg` and served at `/media/{key}`.
//!
//! The local directory is the embedded default. An S3-compatible store
//! (`SETUPIQ_OBJECT_STORE_URL=s3://…`) becomes a second variant of [`MediaStore`].

use std::io;
use std::path::{Path, PathBuf};

/// URL prefix under which the gateway serves media.
pub const URL_PREFIX: &str = "/media/";

/// A safe object key: `folder/name.ext`, lowercase ASCII letters, digits, `-` and `_`,
/// with one of the extensions we write. No `..`, no absolute paths, no surprises.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct MediaKey(String);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MediaKind {
    Jpeg,
    Png,
    Webp,
}

impl MediaKind {
    pub fn extension(self) -> &'static str {
        match self {
            Self::Jpeg => "jpg",
            Self::Png => "png",
            Self::Webp => "webp",
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            Self::Jpeg => "image/jpeg",
            Self::Png => "image/png",
            Self::Webp => "image/webp",
        }
    }

    fn from_extension(ext: &str) -> Option<Self> {
        match ext {
            "jpg" => Some(Self::Jpeg),
            "png" => Some(Self::Png),
            "webp" => Some(Self::Webp),
            _ => None,
        }
    }
}

impl MediaKey {
    /// A new random key in `folder` (e.g. `avatars`).
    pub fn generate(folder: &str, kind: MediaKind) -> Self {
        Self(format!("{folder}/{}.{}", uuid::Uuid::new_v4().simple(), kind.extension()))
    }

    /// Parses a key from untrusted input (a request path); `None` if it is not one of ours.
    pub fn parse(raw: &str) -> Option<Self> {
        let (folder, file) = raw.split_once('/')?;
        let (stem, ext) = file.rsplit_once('.')?;
        let safe = |s: &str| {
            !s.is_empty()
                && s.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
        };
        (safe(folder) && safe(stem) && MediaKind::from_extension(ext).is_some()).then(|| Self(raw.to_owned()))
    }

    /// The key of a media URL we handed out (`/media/avatars/x.jpg`).
    pub fn from_url(url: &str) -> Option<Self> {
        url.strip_prefix(URL_PREFIX).and_then(Self::parse)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn kind(&self) -> MediaKind {
        self.0.rsplit_once('.').and_then(|(_, ext)| MediaKind::from_extension(ext)).unwrap_or(MediaKind::Jpeg)
    }

    /// The URL the browser loads it from.
    pub fn url(&self) -> String {
        format!("{URL_PREFIX}{}", self.0)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum MediaError {
    #[error("media store I/O failed: {0}")]
    Io(#[from] io::Error),
}

/// Where media bytes live.
#[derive(Debug, Clone)]
pub enum MediaStore {
    Local(LocalMediaStore),
}

impl MediaStore {
    pub fn local(root: impl Into<PathBuf>) -> Self {
        Self::Local(LocalMediaStore { root: root.into() })
    }

    pub async fn put(&self, key: &MediaKey, bytes: Vec<u8>) -> Result<(), MediaError> {
        match self {
            Self::Local(store) => store.put(key, bytes).await,
        }
    }

    /// The object's bytes, or `None` when there is no such object.
    pub async fn get(&self, key: &MediaKey) -> Result<Option<Vec<u8>>, MediaError> {
        match self {
            Self::Local(store) => store.get(key).await,
        }
    }

    /// Deletes an object; deleting a missing object is not an error.
    pub async fn delete(&self, key: &MediaKey) -> Result<(), MediaError> {
        match self {
            Self::Local(store) => store.delete(key).await,
        }
    }

    /// Deletes objects that are no longer referenced (a replaced picture, the photos of a
    /// failed save, a deleted account's uploads), logging (not failing) when the store
    /// refuses: the database is the source of truth and an orphaned file is harmless.
    pub async fn remove_media<'a>(&self, keys: impl IntoIterator<Item = &'a MediaKey>) {
        for key in keys {
            if let Err(e) = self.delete(key).await {
                tracing::warn!(key = key.as_str(), error = %e, "could not delete media");
            }
        }
    }
}

#[derive(Debug, Clone)]
pub struct LocalMediaStore {
    root: PathBuf,
}

impl LocalMediaStore {
    fn path(&self, key: &MediaKey) -> PathBuf {
        self.root.join(Path::new(key.as_str()))
    }

    async fn put(&self, key: &MediaKey, bytes: Vec<u8>) -> Result<(), MediaError> {
        let path = self.path(key);
        if let Some(dir) = path.parent() {
            tokio::fs::create_dir_all(dir).await?;
        }
        // Write then rename, so a reader never sees half a file.
        let partial = path.with_extension("partial");
        tokio::fs::write(&partial, bytes).await?;
        tokio::fs::rename(&partial, &path).await?;
        Ok(())
    }

    async fn get(&self, key: &MediaKey) -> Result<Option<Vec<u8>>, MediaError> {
        match tokio::fs::read(self.path(key)).await {
            Ok(bytes) => Ok(Some(bytes)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    async fn delete(&self, key: &MediaKey) -> Result<(), MediaError> {
        match tokio::fs::remove_file(self.path(key)).await {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e.into()),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_reject_anything_unexpected() {
        for bad in [
            "../etc/passwd",
            "avatars/../../x.jpg",
            "/avatars/x.jpg",
            "avatars/x.exe",
            "avatars/X.jpg",
            "a/b/c.jpg",
            "avatars/.jpg",
            "avatars/x.jpg/",
            "avatars/x%2e.jpg",
        ] {
            assert_eq!(MediaKey::parse(bad), None, "{bad}");
        }
        let key = MediaKey::generate("avatars", MediaKind::Png);
        assert_eq!(MediaKey::parse(key.as_str()), Some(key.clone()));
        assert_eq!(MediaKey::from_url(&key.url()), Some(key.clone()));
        assert_eq!(key.kind().content_type(), "image/png");
    }

    #[tokio::test]
    async fn local_store_round_trips_and_deletes() {
        let dir = tempfile::tempdir().unwrap();
        let store = MediaStore::local(dir.path());
        let key = MediaKey::generate("avatars", MediaKind::Jpeg);
        store.put(&key, vec![1, 2, 3]).await.unwrap();
        assert_eq!(store.get(&key).await.unwrap(), Some(vec![1, 2, 3]));
        store.delete(&key).await.unwrap();
        assert_eq!(store.get(&key).await.unwrap(), None);
        store.delete(&key).await.unwrap();
    }
}
