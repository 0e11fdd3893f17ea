//! The media store: user uploads (profile pictures, setup photos and thumbnails, RigPage
//! images) kept under validated keys such as `avatars/5f0c….jpg` and served at
//! `/media/{key}`.
//!
//! The local directory is the embedded default; with `SETUPIQ_OBJECT_STORE_URL=s3://bucket`
//! media live in an S3-compatible bucket ([`S3MediaStore`]) that every replica shares. Media
//! are served through the gateway either way (not by redirect to a presigned URL): the
//! URLs stay the same, the bucket stays private, the Content-Type and `nosniff` are ours,
//! and the page's `img-src 'self'` policy holds.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use object_store::aws::{AmazonS3, AmazonS3Builder};
use object_store::path::Path as ObjectPath;
use object_store::{ClientOptions, ObjectStoreExt, RetryConfig};

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
    #[error("object store: {0}")]
    ObjectStore(#[from] object_store::Error),
    #[error("SETUPIQ_OBJECT_STORE_URL is not valid: {0}")]
    Config(String),
}

/// A store that fails (a bucket that does not answer, a full disk) is an outage to retry
/// later: 503 with `Retry-After`, its cause logged, never shown.
impl From<MediaError> for crate::ApiError {
    fn from(err: MediaError) -> Self {
        crate::ApiError::unavailable(err)
    }
}

/// Where media bytes live.
#[derive(Debug, Clone)]
pub enum MediaStore {
    Local(LocalMediaStore),
    S3(S3MediaStore),
}

impl MediaStore {
    pub fn local(root: impl Into<PathBuf>) -> Self {
        Self::Local(LocalMediaStore { root: root.into() })
    }

    pub async fn put(&self, key: &MediaKey, bytes: Vec<u8>) -> Result<(), MediaError> {
        match self {
            Self::Local(store) => store.put(key, bytes).await,
            Self::S3(store) => store.put(key, bytes).await,
        }
    }

    /// The object's bytes, or `None` when there is no such object.
    pub async fn get(&self, key: &MediaKey) -> Result<Option<Vec<u8>>, MediaError> {
        match self {
            Self::Local(store) => store.get(key).await,
            Self::S3(store) => store.get(key).await,
        }
    }

    /// Deletes an object; deleting a missing object is not an error.
    pub async fn delete(&self, key: &MediaKey) -> Result<(), MediaError> {
        match self {
            Self::Local(store) => store.delete(key).await,
            Self::S3(store) => store.delete(key).await,
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

/// Where an S3-compatible bucket is and how to sign for it: `SETUPIQ_OBJECT_STORE_URL`
/// (`s3://bucket` or `s3://bucket/prefix`) and the standard `AWS_*` variables.
#[derive(Clone, Default)]
pub struct S3Settings {
    pub url: String,
    pub access_key_id: Option<String>,
    pub secret_access_key: Option<String>,
    pub region: Option<String>,
    /// `AWS_ENDPOINT_URL`, for MinIO, Garage, R2 and the like: path-style addressing, and
    /// plain http allowed when the endpoint says so.
    pub endpoint: Option<String>,
}

impl std::fmt::Debug for S3Settings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("S3Settings")
            .field("url", &self.url)
            .field("region", &self.region)
            .field("endpoint", &self.endpoint)
            .finish_non_exhaustive()
    }
}

/// How long one object-store call may take before it fails (a hung store must not hold a
/// request), and how often a failed call is retried within that time.
const S3_TIMEOUT: Duration = Duration::from_secs(10);
const S3_CONNECT_TIMEOUT: Duration = Duration::from_secs(2);
const S3_RETRIES: usize = 2;

/// Media in an S3-compatible bucket, under the URL's prefix.
#[derive(Debug, Clone)]
pub struct S3MediaStore {
    store: Arc<AmazonS3>,
    prefix: String,
}

impl S3MediaStore {
    pub fn new(settings: &S3Settings) -> Result<Self, MediaError> {
        let url = url::Url::parse(&settings.url).map_err(|e| MediaError::Config(e.to_string()))?;
        let bucket = url.host_str().filter(|_| url.scheme() == "s3").ok_or_else(|| {
            MediaError::Config(format!("expected s3://bucket or s3://bucket/prefix, got `{}`", settings.url))
        })?;
        let prefix = url.path().trim_matches('/').to_owned();
        let mut builder = AmazonS3Builder::new()
            .with_bucket_name(bucket)
            .with_region(settings.region.clone().unwrap_or_else(|| "us-east-1".to_owned()))
            .with_client_options(
                ClientOptions::new().with_timeout(S3_TIMEOUT).with_connect_timeout(S3_CONNECT_TIMEOUT),
            )
            .with_retry(RetryConfig {
                max_retries: S3_RETRIES,
                retry_timeout: S3_TIMEOUT,
                ..RetryConfig::default()
            });
        if let (Some(id), Some(secret)) = (&settings.access_key_id, &settings.secret_access_key) {
            builder = builder.with_access_key_id(id).with_secret_access_key(secret);
        }
        if let Some(endpoint) = &settings.endpoint {
            builder = builder
                .with_endpoint(endpoint)
                .with_virtual_hosted_style_request(false)
                .with_allow_http(endpoint.starts_with("http://"));
        }
        Ok(Self { store: Arc::new(builder.build()?), prefix })
    }

    fn path(&self, key: &MediaKey) -> ObjectPath {
        if self.prefix.is_empty() {
            ObjectPath::from(key.as_str())
        } else {
            ObjectPath::from(format!("{}/{}", self.prefix, key.as_str()))
        }
    }

    async fn put(&self, key: &MediaKey, bytes: Vec<u8>) -> Result<(), MediaError> {
        // A PUT is atomic: readers see the whole object or none.
        self.store.put(&self.path(key), bytes.into()).await?;
        Ok(())
    }

    async fn get(&self, key: &MediaKey) -> Result<Option<Vec<u8>>, MediaError> {
        match self.store.get(&self.path(key)).await {
            Ok(object) => Ok(Some(object.bytes().await?.to_vec())),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    async fn delete(&self, key: &MediaKey) -> Result<(), MediaError> {
        match self.store.delete(&self.path(key)).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(e.into()),
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
