//! The media sweep: removes the objects in the media store that no row names, once they
//! are older than a grace period.
//!
//! Every flow writes its media first and the rows naming them after (an analysis's photo,
//! a post's photos, a profile picture), and removes what it wrote when its transaction
//! refuses. A process killed between the two (a crash, `kill -9`, a lost machine) leaves
//! objects behind that nothing will ever name. Rather than writing under a pending key and
//! moving the object once its row committed (a second write of every upload, a copy on
//! S3, and a rename that can itself be cut off), the sweep compares the store with the
//! database: it lists the store first, then collects every key a row names (each crate
//! that writes media answers for its tables; the gateway lists them), and deletes what is
//! unnamed and older than the grace period. The grace period covers uploads whose row is
//! not written yet (a publish in flight on any replica); the listing comes first, so a row
//! committed while the sweep runs is seen.

use std::collections::HashSet;
use std::fmt::Display;
use std::future::Future;

use chrono::{DateTime, Duration, Utc};

use crate::media::{MediaError, MediaKey, MediaStore, StoredObject};

/// The default grace period (`SETUPIQ_MEDIA_SWEEP_GRACE_MINUTES`): far longer than any
/// upload takes between its write and its row.
pub const DEFAULT_GRACE: Duration = Duration::hours(1);

/// A sweep that would remove more than this many objects, and more than half of the
/// objects past the grace period, is refused: that is a database that does not belong to
/// this store (a staging server pointed at production's bucket, a restored backup), not
/// what crashes leave.
pub const IMPLAUSIBLE_ABOVE: usize = 100;

/// What one sweep removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Swept {
    /// Objects examined (ours, in the store).
    pub listed: usize,
    pub removed: usize,
    pub bytes: u64,
    /// Orphans whose deletion failed (kept for the next sweep).
    pub failed: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum SweepError {
    #[error("the media store could not be listed: {0}")]
    Store(#[from] MediaError),
    #[error("the media keys the rows name could not be read: {0}")]
    Names(String),
    #[error(
        "{orphans} of the {old} media objects older than the grace period are named by no row; \
         this database does not look like the one this store belongs to, so nothing was removed"
    )]
    Implausible { orphans: usize, old: usize },
}

/// The objects to remove: older than `grace` at `now`, and not named by any row (a
/// cut-off `.partial` write is named by none).
pub fn orphans(
    listed: Vec<StoredObject>,
    named: &HashSet<MediaKey>,
    now: DateTime<Utc>,
    grace: Duration,
) -> Vec<StoredObject> {
    listed
        .into_iter()
        .filter(|object| now - object.modified > grace)
        .filter(|object| object.key().is_none_or(|key| !named.contains(&key)))
        .collect()
}

/// Lists `store`, then awaits `named` (every key a row names), then deletes the orphans.
/// Deletions that fail are counted and logged, not fatal: the next sweep tries again.
pub async fn sweep<F, Fut, E>(
    store: &MediaStore,
    grace: Duration,
    now: DateTime<Utc>,
    named: F,
) -> Result<Swept, SweepError>
where
    F: FnOnce() -> Fut,
    Fut: Future<Output = Result<HashSet<MediaKey>, E>>,
    E: Display,
{
    let listed = store.list().await?;
    let total = listed.len();
    let old = listed.iter().filter(|object| now - object.modified > grace).count();
    let named = named().await.map_err(|e| SweepError::Names(e.to_string()))?;
    let orphans = orphans(listed, &named, now, grace);
    if orphans.len() > IMPLAUSIBLE_ABOVE && orphans.len() * 2 > old {
        return Err(SweepError::Implausible { orphans: orphans.len(), old });
    }
    let mut swept = Swept { listed: total, ..Swept::default() };
    for object in &orphans {
        match store.delete_listed(object).await {
            Ok(()) => {
                swept.removed += 1;
                swept.bytes += object.bytes;
            }
            Err(e) => {
                swept.failed += 1;
                tracing::warn!(name = object.name(), error = %e, "an unnamed media object could not be removed");
            }
        }
    }
    Ok(swept)
}

#[cfg(test)]
mod tests {
    use std::fs::{File, FileTimes};
    use std::path::Path;
    use std::time::SystemTime;

    use super::*;
    use crate::media::MediaKind;

    fn backdate(path: &Path, by: std::time::Duration) {
        let file = File::options().write(true).open(path).unwrap();
        let then = SystemTime::now() - by;
        file.set_times(FileTimes::new().set_modified(then).set_accessed(then)).unwrap();
    }

    const TWO_HOURS: std::time::Duration = std::time::Duration::from_secs(2 * 3600);

    /// The keys rows name, as the database would answer them.
    fn names(keys: &[&MediaKey]) -> std::future::Ready<Result<HashSet<MediaKey>, String>> {
        std::future::ready(Ok(keys.iter().map(|k| (*k).clone()).collect()))
    }

    #[tokio::test]
    async fn old_unnamed_files_go_while_named_and_recent_ones_stay() {
        let dir = tempfile::tempdir().unwrap();
        let store = MediaStore::local(dir.path());
        let named = MediaKey::generate("community", MediaKind::Jpeg);
        let orphan = MediaKey::generate("community_thumbs", MediaKind::Jpeg);
        let in_flight = MediaKey::generate("community", MediaKind::Jpeg);
        store.put(&named, vec![1; 10]).await.unwrap();
        store.put(&orphan, vec![2; 300]).await.unwrap();
        store.put(&in_flight, vec![3; 20]).await.unwrap();
        let cut_off = dir.path().join("community").join("0123abcd.partial");
        std::fs::write(&cut_off, [4; 7]).unwrap();
        let foreign = dir.path().join("community").join("README.txt");
        std::fs::write(&foreign, "an operator's note").unwrap();
        for path in [named.as_str(), orphan.as_str(), "community/0123abcd.partial", "community/README.txt"] {
            backdate(&dir.path().join(path), TWO_HOURS);
        }

        let swept = sweep(&store, DEFAULT_GRACE, Utc::now(), || names(&[&named])).await.unwrap();

        assert_eq!(swept, Swept { listed: 4, removed: 2, bytes: 307, failed: 0 });
        assert_eq!(store.get(&named).await.unwrap(), Some(vec![1; 10]), "named: kept");
        assert_eq!(store.get(&orphan).await.unwrap(), None, "unnamed and old: removed");
        assert!(!cut_off.exists(), "a write cut off by a crash: removed");
        assert!(
            store.get(&in_flight).await.unwrap().is_some(),
            "unnamed but recent (a publish in flight): kept"
        );
        assert!(foreign.exists(), "not ours: never touched");
    }

    #[tokio::test]
    async fn a_store_never_written_to_sweeps_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let store = MediaStore::local(dir.path().join("media"));
        let swept = sweep(&store, DEFAULT_GRACE, Utc::now(), || names(&[])).await.unwrap();
        assert_eq!(swept, Swept::default());
    }

    #[tokio::test]
    async fn names_that_cannot_be_read_remove_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let store = MediaStore::local(dir.path());
        let orphan = MediaKey::generate("avatars", MediaKind::Png);
        store.put(&orphan, vec![1]).await.unwrap();
        let later = Utc::now() + Duration::hours(2);
        let failed =
            sweep(&store, DEFAULT_GRACE, later, || async { Err::<HashSet<MediaKey>, _>("database down") })
                .await
                .unwrap_err();
        assert_eq!(failed.to_string(), "the media keys the rows name could not be read: database down");
        assert!(store.get(&orphan).await.unwrap().is_some());
    }

    #[tokio::test]
    async fn a_database_that_names_almost_nothing_in_a_full_store_removes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let store = MediaStore::local(dir.path());
        let mut keys = Vec::new();
        for _ in 0..2 * (IMPLAUSIBLE_ABOVE + 1) {
            let key = MediaKey::generate("analyses", MediaKind::Jpeg);
            store.put(&key, vec![1]).await.unwrap();
            keys.push(key);
        }
        let later = Utc::now() + Duration::hours(2);
        let refused = sweep(&store, DEFAULT_GRACE, later, || names(&[&keys[0]])).await.unwrap_err();
        assert!(matches!(refused, SweepError::Implausible { orphans: 201, old: 202 }), "{refused}");
        assert_eq!(store.list().await.unwrap().len(), 202, "nothing removed");

        // As many orphans beside as many named objects are what crashes leave: removed.
        let named: Vec<&MediaKey> = keys.iter().take(IMPLAUSIBLE_ABOVE + 1).collect();
        let swept = sweep(&store, DEFAULT_GRACE, later, || names(&named)).await.unwrap();
        assert_eq!(swept.removed, IMPLAUSIBLE_ABOVE + 1);
    }
}
