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

use chrono::{DateTime, Utc};
use futures_util::TryStreamExt;
use object_store::aws::{AmazonS3, AmazonS3Builder};
use object_store::path::Path as ObjectPath;
use object_store::{ClientOptions, ObjectStore, ObjectStoreExt, RetryConfig};

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

/// An object found in the store by [`MediaStore::list`]: one of our keys, or (local
/// directory only) the `.partial` file of a write that a crash cut off.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredObject {
    name: String,
    pub bytes: u64,
    pub modified: DateTime<Utc>,
}

impl StoredObject {
    /// Only names we write are ever listed, hence deleted: see [`is_ours`].
    fn listed(name: String, bytes: u64, modified: DateTime<Utc>) -> Option<Self> {
        is_ours(&name).then_some(Self { name, bytes, modified })
    }

    /// Its name in the store (`community/5f0c….jpg`, `avatars/5f0c….partial`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The key a row would name it by; `None` for a cut-off write, which no row names.
    pub fn key(&self) -> Option<MediaKey> {
        MediaKey::parse(&self.name)
    }
}

/// Whether `name` is something this application wrote: a media key, or the `.partial`
/// file [`LocalMediaStore::put`] writes before its rename. Anything else in the directory
/// or the bucket (an operator's file, another application's prefix) is never touched.
fn is_ours(name: &str) -> bool {
    MediaKey::parse(name).is_some()
        || name.strip_suffix(".partial").is_some_and(|stem| MediaKey::parse(&format!("{stem}.jpg")).is_some())
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

    /// Every object of ours in the store with its size and last write, in no particular
    /// order (for the sweep of unnamed media, [`crate::media_sweep`]).
    pub async fn list(&self) -> Result<Vec<StoredObject>, MediaError> {
        match self {
            Self::Local(store) => store.list().await,
            Self::S3(store) => store.list().await,
        }
    }

    /// Deletes a listed object; one already gone is not an error.
    pub async fn delete_listed(&self, object: &StoredObject) -> Result<(), MediaError> {
        match self {
            Self::Local(store) => store.delete_path(&store.root.join(object.name())).await,
            Self::S3(store) => store.delete_path(&store.path_of(object.name())).await,
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
        self.delete_path(&self.path(key)).await
    }

    async fn delete_path(&self, path: &Path) -> Result<(), MediaError> {
        match tokio::fs::remove_file(path).await {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e.into()),
            _ => Ok(()),
        }
    }

    /// The files one folder down (`folder/name.ext`, the only depth keys have); a root
    /// that does not exist yet holds nothing.
    async fn list(&self) -> Result<Vec<StoredObject>, MediaError> {
        let root = self.root.clone();
        tokio::task::spawn_blocking(move || list_dir(&root))
            .await
            .map_err(|e| MediaError::Io(io::Error::other(e)))?
    }
}

fn list_dir(root: &Path) -> Result<Vec<StoredObject>, MediaError> {
    let folders = match std::fs::read_dir(root) {
        Ok(folders) => folders,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e.into()),
    };
    let mut found = Vec::new();
    for folder in folders {
        let folder = folder?;
        if !folder.file_type()?.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(folder.path())? {
            let file = file?;
            let meta = file.metadata()?;
            if !meta.is_file() {
                continue;
            }
            let name =
                format!("{}/{}", folder.file_name().to_string_lossy(), file.file_name().to_string_lossy());
            found.extend(StoredObject::listed(name, meta.len(), meta.modified()?.into()));
        }
    }
    Ok(found)
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
        self.path_of(key.as_str())
    }

    fn path_of(&self, name: &str) -> ObjectPath {
        if self.prefix.is_empty() {
            ObjectPath::from(name)
        } else {
            ObjectPath::from(format!("{}/{}", self.prefix, name))
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
        self.delete_path(&self.path(key)).await
    }

    async fn delete_path(&self, path: &ObjectPath) -> Result<(), MediaError> {
        match self.store.delete(path).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(e.into()),
        }
    }

    /// Every object under the prefix (ListObjectsV2, page after page).
    async fn list(&self) -> Result<Vec<StoredObject>, MediaError> {
        let prefix = (!self.prefix.is_empty()).then(|| ObjectPath::from(self.prefix.as_str()));
        let metas: Vec<object_store::ObjectMeta> = self.store.list(prefix.as_ref()).try_collect().await?;
        let strip = if self.prefix.is_empty() { String::new() } else { format!("{}/", self.prefix) };
        Ok(metas
            .into_iter()
            .filter_map(|meta| {
                let name = meta.location.as_ref().strip_prefix(strip.as_str())?.to_owned();
                StoredObject::listed(name, meta.size, meta.last_modified)
            })
            .collect())
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
