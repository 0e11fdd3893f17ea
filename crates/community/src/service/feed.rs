//! The feed: what people browse (by period, ranked by score, newest or hot), as the
//! [`Feed`] of this process builds, keeps and serves its pages, and the items it shows (a
//! post's card, also on its own page and a profile). A page costs a fixed number of queries
//! however many items it holds: the page, its photos, the viewer's votes, the uploaders,
//! their RigPage badges, the analyses, the comment counts and the gear, each once.

use std::collections::HashMap;
use std::sync::Arc;

use actix_web::web::Bytes;
use chrono::{DateTime, Duration, NaiveDateTime, Utc};
use serde::{Deserialize, Serialize};
use setupiq_analysis::service::SavedAnalysis;
use setupiq_auth::{Account, Session};
use setupiq_core::feed_changes::FeedChanges;
use setupiq_core::ttl_cache::TtlCache;
use setupiq_core::{AnalysisId, SetupId, SharedClock, UserId};
use setupiq_db::{Db, DbConnection};

use super::cache::{FeedCache, FeedKey};
use super::gear::{self, GearItem};
use super::leaderboard::{self, Leader};
use super::setups::{PostText, SetupImage, photos_of};
use super::votes::Vote;
use crate::dto::{item_json, page_body, page_body_of_parts};
use crate::error::CommunityError;
use crate::models::SetupRow;
use crate::repo::{self, CurrentScore, Order, Visible};

/// How many of a period's newest setups the hot ranking considers.
pub const HOT_WINDOW: i64 = 1000;

/// The periods of the feed and the leaderboard: the last 7 or 30 days, or all time.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(as = FeedPeriod)]
pub enum Period {
    Week,
    Month,
    #[default]
    All,
}

impl Period {
    pub fn since(self, now: DateTime<Utc>) -> Option<NaiveDateTime> {
        match self {
            Period::Week => Some((now - Duration::days(7)).naive_utc()),
            Period::Month => Some((now - Duration::days(30)).naive_utc()),
            Period::All => None,
        }
    }
}

/// How the feed is ordered.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(as = FeedSort)]
pub enum Sort {
    /// Highest score first; ties: the newer first.
    #[default]
    Top,
    /// Newest first.
    New,
    /// Lemmy's rank: log(max(1, 3 + score)) / (hours since publishing + 2)^1.8.
    Hot,
}

/// Lemmy's hot rank of a setup.
pub fn hot_rank(score: i32, created_at: NaiveDateTime, now: DateTime<Utc>) -> f64 {
    #[allow(clippy::cast_precision_loss)] // seconds since publishing, far below 2^52
    let hours = ((now.naive_utc() - created_at).num_seconds().max(0) as f64) / 3600.0;
    f64::from((3 + score).max(1)).ln() / (hours + 2.0).powf(1.8)
}

/// Who published a setup, as the viewer may see them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Uploader {
    pub id: UserId,
    /// Only for the uploader themselves; none for everyone else.
    pub email: Option<String>,
    pub username: String,
    pub display_name: String,
    pub profile_picture: Option<String>,
    pub is_pro: bool,
    /// The uploader's RigPage, when it is live and shown on the community.
    pub rigpage_slug: Option<String>,
}

/// The analysis behind a setup.
#[derive(Debug, Clone, PartialEq)]
pub struct AnalysisSummary {
    pub id: AnalysisId,
    pub overall_rating: f64,
    pub improvement_suggestions: Vec<String>,
}

/// One setup in a list.
#[derive(Debug, Clone, PartialEq)]
pub struct FeedItem {
    pub id: SetupId,
    pub text: PostText,
    pub score: i32,
    pub upvotes: i32,
    pub user_vote: Option<Vote>,
    /// Comments under it (deleted ones aside).
    pub comment_count: i64,
    pub images: Vec<SetupImage>,
    pub uploader: Uploader,
    pub analysis: Option<AnalysisSummary>,
    /// Its gear, in the owner's order (issue 59).
    pub gear: Vec<GearItem>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// A page of setups and how many there are in all.
#[derive(Debug, Clone, PartialEq)]
pub struct FeedPage {
    pub items: Vec<FeedItem>,
    pub total: i64,
    /// How many of the period's setups the viewer reported, and so no longer sees (0 for a
    /// visitor): an empty feed then says why instead of inviting them to be the first.
    pub reported_by_viewer: i64,
}

/// Everyone's page as the feed keeps it: the page, and each item already serialised.
#[derive(Debug)]
pub struct KeptPage {
    pub page: FeedPage,
    items_json: Vec<Bytes>,
}

impl KeptPage {
    fn new(page: FeedPage) -> Result<Self, CommunityError> {
        let items_json = page.items.iter().map(|item| item_json(item.clone())).collect::<Result<_, _>>()?;
        Ok(Self { page, items_json })
    }
}

/// What the feed shows.
#[derive(Debug, Clone, Copy)]
pub struct FeedQuery {
    pub period: Period,
    pub sort: Sort,
    pub limit: i64,
    pub offset: i64,
}

/// The community feed of this process: builds pages and leaderboards from the database and
/// keeps them a few seconds ([`FeedCache`]), the one place that does.
///
/// What it keeps is forgotten whenever [`FeedChanges`] moved since the last request: the
/// community's services record every change after their commit (publish, edit, delete,
/// a report that hides a setup, a moderator's decision; a vote only moves the rankings), and
/// so do the account and analysis deletions, which take posts with them. Handlers only ask
/// ([`Feed::page`], [`Feed::leaderboard`]); none of them clears anything.
#[derive(Clone)]
pub struct Feed {
    db: Db,
    clock: SharedClock,
    changes: FeedChanges,
    kept: Arc<FeedCache>,
}

impl Feed {
    pub fn new(db: Db, clock: SharedClock, changes: FeedChanges) -> Self {
        Self { db, clock, changes, kept: Arc::new(FeedCache::default()) }
    }

    /// A page of the feed as the response body, for whoever `session` signs in. A visitor's
    /// is served as it was kept, without a trip to the database threads. Otherwise one trip
    /// there looks the session up and writes the page: everyone's kept page for a visitor,
    /// the viewer's for a signed-in member (`viewer_body`).
    pub async fn page(&self, session: Session, query: FeedQuery) -> Result<Bytes, CommunityError> {
        self.catch_up();
        let key = query.key();
        if session.is_visitor()
            && let Some(body) = self.kept.visitors.get(&key)
        {
            return Ok(body);
        }
        let (feed, now) = (self.clone(), self.clock.now());
        self.db
            .run(move |conn| match session.account(conn, now)? {
                // Written once per kept page, by one request at a time, from its kept items.
                None => feed.kept.visitors.get_or(key, || {
                    let everyone = feed.everyone(conn, query, now)?;
                    Ok(page_body_of_parts(&everyone.items_json, everyone.page.total, 0, &query)?)
                }),
                Some(account) => feed.viewer_body(conn, account.id, query, now),
            })
            .await
    }

    /// A signed-in viewer's page as the response body.
    ///
    /// A viewer who reported none of the period's setups sees everyone's kept page with
    /// their own votes, their own e-mail and every score read fresh laid over it (lookups by
    /// key: their reports, then the page's scores with their votes): only the order may be
    /// up to the [`TTL`](super::cache::TTL) old, and each item the overlay leaves as it was
    /// kept is sent as its kept bytes (no clone, no serialisation). A viewer who reported
    /// some of the period's setups gets a page built for them, since leaving those setups
    /// out shifts every later position.
    fn viewer_body(
        &self,
        conn: &mut DbConnection,
        viewer: UserId,
        query: FeedQuery,
        now: DateTime<Utc>,
    ) -> Result<Bytes, CommunityError> {
        let everyone = self.everyone(conn, query, now)?;
        let reported = reported_by(conn, viewer, query, now)?;
        if reported > 0 {
            let page = build_page(conn, Some(viewer), query, now, &self.kept.totals, reported)?;
            return Ok(page_body(page, &query)?);
        }
        let overlay = Overlay::read(conn, &everyone.page, viewer)?;
        let mut items = Vec::with_capacity(everyone.items_json.len());
        for (item, kept) in everyone.page.items.iter().zip(&everyone.items_json) {
            match overlay.item(item) {
                Seen::Gone => {}
                Seen::AsKept => items.push(kept.clone()),
                Seen::Changed(item) => items.push(item_json(*item)?),
            }
        }
        Ok(page_body_of_parts(&items, everyone.page.total, 0, &query)?)
    }

    /// Everyone's page of `query`, built once per [`TTL`](super::cache::TTL) and kept.
    fn everyone(
        &self,
        conn: &mut DbConnection,
        query: FeedQuery,
        now: DateTime<Utc>,
    ) -> Result<Arc<KeptPage>, CommunityError> {
        let kept = &self.kept;
        kept.pages.get_or(query.key(), || {
            let page = build_page(conn, None, query, now, &kept.totals, 0)?;
            KeptPage::new(page).map(Arc::new)
        })
    }

    /// The leaderboard of a period, kept a few seconds (a vote forgets it), without e-mails:
    /// the caller adds the viewer's own.
    pub async fn leaderboard(&self, period: Period, limit: i64) -> Result<Arc<Vec<Leader>>, CommunityError> {
        self.catch_up();
        let key = (period, limit);
        if let Some(board) = self.kept.leaderboards.get(&key) {
            return Ok(board);
        }
        let (kept, now) = (self.kept.clone(), self.clock.now());
        self.db
            .run(move |conn| {
                kept.leaderboards
                    .get_or(key, || leaderboard::ranking(conn, period, limit, None, now).map(Arc::new))
            })
            .await
    }

    /// Forgets what a change recorded since the last request made out of date.
    fn catch_up(&self) {
        self.kept.catch_up(&self.changes);
    }
}

impl FeedQuery {
    fn key(&self) -> FeedKey {
        (self.period, self.sort, self.limit, self.offset)
    }
}

/// How many of the period's setups the viewer reported (and so no longer sees).
fn reported_by(
    conn: &mut DbConnection,
    viewer: UserId,
    query: FeedQuery,
    now: DateTime<Utc>,
) -> Result<i64, CommunityError> {
    let filter = Visible { since: query.period.since(now), viewer: None, author: None };
    Ok(repo::count_reported_by(conn, viewer, filter)?)
}

/// What a signed-in viewer sees over everyone's page: their votes, their e-mail on their
/// own setups, the current scores (a setup deleted or hidden since the page was built is
/// left out).
struct Overlay {
    viewer: UserId,
    current: HashMap<SetupId, CurrentScore>,
    email: Option<String>,
}

/// An item of everyone's page as the viewer sees it.
enum Seen {
    Gone,
    /// Exactly as kept: no vote of theirs, the score unchanged, not their own.
    AsKept,
    Changed(Box<FeedItem>),
}

impl Overlay {
    /// One query by key for the page's scores and the viewer's votes (and their e-mail when
    /// one of the setups is theirs).
    fn read(conn: &mut DbConnection, page: &FeedPage, viewer: UserId) -> Result<Self, CommunityError> {
        let ids: Vec<SetupId> = page.items.iter().map(|item| item.id).collect();
        let current = repo::scores_and_votes(conn, viewer, &ids)?;
        let email = if page.items.iter().any(|item| item.uploader.id == viewer) {
            setupiq_auth::service::accounts::find(conn, viewer)?.map(|account| account.email)
        } else {
            None
        };
        Ok(Self { viewer, current, email })
    }

    fn item(&self, item: &FeedItem) -> Seen {
        let Some(now) = self.current.get(&item.id) else { return Seen::Gone };
        let own = item.uploader.id == self.viewer;
        if now.vote.is_none() && !own && now.score == item.score && now.upvotes == item.upvotes {
            return Seen::AsKept;
        }
        let mut item = item.clone();
        item.score = now.score;
        item.upvotes = now.upvotes;
        item.user_vote = now.vote.and_then(|v| Vote::from_value(i64::from(v)));
        if own {
            item.uploader.email.clone_from(&self.email);
        }
        Seen::Changed(Box::new(item))
    }
}

/// A page built from the database for `viewer` (none: everyone's page), who reported
/// `reported` of the period's setups (counted once by [`Feed::viewer_body`]). `totals` keeps each
/// period's count for a few seconds.
fn build_page(
    conn: &mut DbConnection,
    viewer: Option<UserId>,
    query: FeedQuery,
    now: DateTime<Utc>,
    totals: &TtlCache<Period, i64>,
    reported: i64,
) -> Result<FeedPage, CommunityError> {
    let filter = Visible { since: query.period.since(now), viewer, author: None };
    let (rows, total) = match query.sort {
        Sort::Top | Sort::New => {
            let order = if query.sort == Sort::Top { Order::Score } else { Order::Newest };
            let rows = repo::list_visible(conn, filter, order, query.limit, query.offset)?;
            let everyone = totals.get_or(query.period, || repo::count_visible(conn, filter))?;
            (rows, (everyone - reported).max(0))
        }
        Sort::Hot => {
            let mut window = repo::list_visible(conn, filter, Order::Newest, HOT_WINDOW, 0)?;
            window.sort_by(|a, b| {
                hot_rank(b.score, b.created_at, now).total_cmp(&hot_rank(a.score, a.created_at, now))
            });
            let total = i64::try_from(window.len()).unwrap_or(i64::MAX);
            let page = window
                .into_iter()
                .skip(usize::try_from(query.offset).unwrap_or(usize::MAX))
                .take(usize::try_from(query.limit).unwrap_or(0))
                .collect();
            (page, total)
        }
    };
    Ok(FeedPage { items: items(conn, rows, viewer)?, total, reported_by_viewer: reported })
}

/// The setups of `rows` with everything a card shows, in a fixed number of queries.
pub(crate) fn items(
    conn: &mut DbConnection,
    rows: Vec<SetupRow>,
    viewer: Option<UserId>,
) -> Result<Vec<FeedItem>, CommunityError> {
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<SetupId> = rows.iter().map(|r| r.id).collect();
    let mut uploader_ids: Vec<UserId> = rows.iter().map(|r| r.user_id).collect();
    uploader_ids.sort_unstable();
    uploader_ids.dedup();
    let analysis_ids: Vec<AnalysisId> = rows.iter().map(|r| r.analysis_id).collect();

    let mut images = photos_of(conn, &ids)?;
    let votes: HashMap<SetupId, i32> = match viewer {
        Some(viewer) => repo::votes_on(conn, viewer, &ids)?.into_iter().collect(),
        None => HashMap::new(),
    };
    let accounts: HashMap<UserId, Account> = setupiq_auth::service::accounts::find_many(conn, &uploader_ids)?
        .into_iter()
        .map(|a| (a.id, a))
        .collect();
    let badges = setupiq_rigpage::service::config::badges(conn, &uploader_ids)?;
    let analyses: HashMap<AnalysisId, SavedAnalysis> =
        setupiq_analysis::service::find_many(conn, &analysis_ids)?.into_iter().map(|a| (a.id, a)).collect();
    let comments = repo::comment_counts(conn, &ids)?;
    let mut gear = gear::lists_of(conn, &ids)?;

    rows.into_iter()
        .map(|row| {
            let account = accounts.get(&row.user_id).ok_or(CommunityError::SetupNotFound)?;
            let rigpage_slug = badges
                .get(&row.user_id)
                .filter(|b| b.enabled && b.show_on_community)
                .and_then(|b| b.slug.clone());
            Ok(FeedItem {
                id: row.id,
                text: row.text,
                score: row.score,
                upvotes: row.upvotes,
                user_vote: votes.get(&row.id).and_then(|v| Vote::from_value(i64::from(*v))),
                comment_count: comments.get(&row.id).copied().unwrap_or(0),
                images: images.remove(&row.id).unwrap_or_default(),
                uploader: Uploader {
                    id: row.user_id,
                    email: (viewer == Some(row.user_id)).then(|| account.email.clone()),
                    username: account.username.clone(),
                    display_name: account.display_name.clone(),
                    profile_picture: account.profile_picture.clone(),
                    is_pro: account.is_pro,
                    rigpage_slug,
                },
                analysis: analyses.get(&row.analysis_id).map(|a| AnalysisSummary {
                    id: a.id,
                    overall_rating: a.report.assessment.overall_score,
                    improvement_suggestions: a.report.suggestions.iter().map(|s| s.title.clone()).collect(),
                }),
                gear: gear.remove(&row.id).unwrap_or_default(),
                created_at: row.created_at.and_utc(),
                updated_at: row.updated_at.and_utc(),
            })
        })
        .collect()
}

/// One setup as `viewer` sees it on its own page; none when it does not exist or is not
/// theirs to see (hidden, or reported by them).
pub fn setup(
    conn: &mut DbConnection,
    viewer: Option<UserId>,
    setup_id: SetupId,
) -> Result<Option<FeedItem>, CommunityError> {
    if !super::reports::visible_to(conn, viewer, setup_id)? {
        return Ok(None);
    }
    let Some(row) = repo::find_setup(conn, setup_id)? else { return Ok(None) };
    Ok(items(conn, vec![row], viewer)?.pop())
}
