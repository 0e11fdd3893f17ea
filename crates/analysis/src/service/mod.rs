//! The rules around an analysis, over a connection (no actix types): who may analyse
//! (credits, Pro, the anonymous trial), saving a delivered result together with its credit,
//! and reading a user's history.

pub mod analyze;
pub mod progress;
pub mod share;
pub mod suggestions;
pub mod visitor;

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use setupiq_auth::service::export::{Section, SectionError};
use setupiq_auth::service::ledger::{self, LedgerReason};
use setupiq_core::media::MediaKey;
use setupiq_core::{AnalysisId, UserId};
use setupiq_db::{AppCtx, DbConnection, DieselError, is_unique_violation, write_transaction};

use crate::error::AnalysisError;
use crate::models::{AnalysisInsertForm, AnalysisRow, HoldInsertForm, TrialInsertForm};
pub use crate::models::{AnalysisStatus, InputType};
use crate::repo;
pub use progress::Progress;
use setupiq_analyzer::result::{Assessment, Source};
use setupiq_analyzer::voice::Voices;
use setupiq_analyzer::{AnalyzerName, Rating};
pub use suggestions::Suggestion;

/// How long a photo analysis's hold counts if it is never given back (its process was
/// killed): far longer than an analysis takes, short enough not to lock anyone out for long.
pub const HOLD_FOR: Duration = Duration::minutes(2);

/// Credits one analysis costs.
pub const ANALYSIS_COST: i32 = 1;
/// Anonymous free analyses per IP address in 24 hours (a household shares one address).
pub const TRIALS_PER_IP_PER_DAY: i64 = 3;

/// Who asks for an analysis.
#[derive(Debug, Clone)]
pub enum Requester {
    /// `credits`: the balance read with the session.
    User { id: UserId, is_pro: bool, credits: i32 },
    /// An anonymous visitor: the SHA-256 of their anonymous-id cookie, and their IP.
    Visitor { visitor_hash: String, ip: String },
}

impl Requester {
    /// Who holds a photo analysis ([`take_hold`]): the account, or the anonymous visitor.
    pub fn hold_owner(&self) -> String {
        match self {
            Requester::User { id, .. } => format!("user:{id}"),
            Requester::Visitor { visitor_hash, .. } => format!("visitor:{visitor_hash}"),
        }
    }

    /// Whose place in the image queue an analysis takes: the account, or for anonymous
    /// visitors their address (a new visitor id costs nothing; an address does).
    pub fn queue_owner(&self) -> String {
        match self {
            Requester::User { id, .. } => format!("user:{id}"),
            Requester::Visitor { ip, .. } => format!("ip:{ip}"),
        }
    }
}

/// A photo analysis in flight: the one an account (or visitor) may have at a time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hold {
    pub owner: String,
    pub token: String,
}

/// Takes the requester's one photo analysis hold before any work, in a transaction after
/// `ledger::lock_account`: refused with 402 when the credit (or the free trial) is not
/// there, and with [`AnalysisError::AlreadyRunning`] while another of their analyses holds
/// it (on any replica). The credit itself is taken with the result ([`save_and_charge`]);
/// the hold is given back by [`release_hold`], or counts no more after [`HOLD_FOR`].
pub fn take_hold(
    conn: &mut DbConnection,
    requester: &Requester,
    now: DateTime<Utc>,
) -> Result<Hold, AnalysisError> {
    let owner = requester.hold_owner();
    write_transaction(conn, |conn| {
        match requester {
            Requester::User { id, is_pro, .. } => {
                ledger::lock_account(conn, *id)?;
                if !is_pro {
                    check_credits(false, ledger::balance(conn, *id)?)?;
                }
            }
            Requester::Visitor { visitor_hash, ip } => check_trial(conn, visitor_hash, ip, now)?,
        }
        repo::delete_expired_hold(conn, &owner, now.naive_utc())?;
        let token = setupiq_core::tokens::generate();
        let form = HoldInsertForm { owner: &owner, token: &token, expires_at: (now + HOLD_FOR).naive_utc() };
        match repo::insert_hold(conn, &form) {
            Ok(_) => Ok(Hold { owner: owner.clone(), token }),
            Err(e) if is_unique_violation(&e) => Err(AnalysisError::AlreadyRunning),
            Err(e) => Err(e.into()),
        }
    })
}

/// Gives a hold back (the analysis was saved, refused or failed).
pub fn release_hold(conn: &mut DbConnection, hold: &Hold) -> Result<(), AnalysisError> {
    repo::delete_hold(conn, &hold.owner, &hold.token)?;
    Ok(())
}

/// Refuses early (before any work) a signed-in user without credits; Pro users are never
/// charged. `credits` is the balance read with the session: the guarded charge in
/// [`save_and_charge`] is the final word.
pub fn check_credits(is_pro: bool, credits: i32) -> Result<(), AnalysisError> {
    if is_pro || credits >= ANALYSIS_COST { Ok(()) } else { Err(AnalysisError::InsufficientCredits) }
}

/// Refuses early (before any work) a visitor whose free analysis is used, or whose address
/// has had its free analyses for the day.
pub fn check_trial(
    conn: &mut DbConnection,
    visitor_hash: &str,
    ip: &str,
    now: DateTime<Utc>,
) -> Result<(), AnalysisError> {
    if repo::trial_used(conn, visitor_hash)? {
        return Err(AnalysisError::TrialUsed);
    }
    let since = (now - Duration::hours(24)).naive_utc();
    if repo::trials_from_ip_since(conn, ip, since)? >= TRIALS_PER_IP_PER_DAY {
        return Err(AnalysisError::TrialLimitReached);
    }
    Ok(())
}

/// Uses up a visitor's free analysis for a delivered result; of concurrent claims of one
/// visitor exactly one succeeds.
pub fn claim_trial(
    conn: &mut DbConnection,
    visitor_hash: &str,
    ip: &str,
    now: DateTime<Utc>,
) -> Result<(), AnalysisError> {
    write_transaction(conn, |conn| {
        repo::lock_trials(conn)?;
        check_trial(conn, visitor_hash, ip, now)?;
        let form = TrialInsertForm { visitor_hash, ip, created_at: now.naive_utc() };
        match repo::insert_trial(conn, &form) {
            Ok(_) => Ok(()),
            Err(e) if is_unique_violation(&e) => Err(AnalysisError::TrialUsed),
            Err(e) => Err(e.into()),
        }
    })
}

/// The result as delivered, as it is stored (`analyses.result_json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub assessment: Assessment,
    pub suggestions: Vec<Suggestion>,
    pub analyzer: AnalyzerName,
    /// The result as a roast and as coaching, made when it was delivered (absent from
    /// results saved before voices existed: [`Report::voices`] makes them then).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub voices: Option<Voices>,
    /// A re-rating's comparison with the analysis it re-rates ([`progress`]), made when it
    /// was delivered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub progress: Option<Progress>,
}

impl InputType {
    /// What an analysis of this input was made from.
    pub fn source(self) -> Source {
        match self {
            InputType::Image => Source::Photo,
            InputType::Text => Source::Description,
        }
    }
}

impl Report {
    pub fn new(assessment: Assessment, suggestions: Vec<Suggestion>, analyzer: AnalyzerName) -> Report {
        let voices = Some(Voices::of(&assessment));
        Report { assessment, suggestions, analyzer, voices, progress: None }
    }

    /// The Roast and Coach voices, as stored or made from the assessment.
    pub fn voices(&self) -> Voices {
        self.voices.clone().unwrap_or_else(|| Voices::of(&self.assessment))
    }
}

/// A delivered analysis to save.
#[derive(Debug)]
pub struct NewAnalysis<'a> {
    pub user_id: UserId,
    pub is_pro: bool,
    pub input_type: InputType,
    /// The description (text analyses, or the note that came with a photo).
    pub input_text: Option<&'a str>,
    pub image: Option<&'a MediaKey>,
    pub thumbnail: Option<&'a MediaKey>,
    pub rating: &'a Rating,
    pub suggestions: &'a [Suggestion],
    /// The user's own analysis this one re-rates (the same setup, rated again).
    pub previous: Option<AnalysisId>,
}

/// A saved analysis.
#[derive(Debug, Clone, PartialEq)]
pub struct SavedAnalysis {
    pub id: AnalysisId,
    pub user_id: UserId,
    pub input_type: InputType,
    pub input_text: Option<String>,
    pub image: Option<MediaKey>,
    pub thumbnail: Option<MediaKey>,
    pub report: Report,
    pub status: AnalysisStatus,
    pub created_at: DateTime<Utc>,
    /// Set while the owner shares it at `/share/{token}` ([`share`]).
    pub share_token: Option<String>,
    /// The analysis this one re-rates, while it exists ([`progress`]).
    pub previous_analysis_id: Option<AnalysisId>,
}

/// Refuses early (before any work) a re-rating of an analysis that is not the requester's
/// own: another user's, one that does not exist, or any for an anonymous visitor (who has
/// none) is "not found".
pub fn check_previous(
    conn: &mut DbConnection,
    requester: &Requester,
    previous: AnalysisId,
) -> Result<(), AnalysisError> {
    match requester {
        Requester::User { id, .. } => find_for_owner(conn, *id, previous).map(drop),
        Requester::Visitor { .. } => Err(AnalysisError::NotFound),
    }
}

/// Saves a delivered analysis and takes its credit in one transaction (Pro users pay
/// nothing). Fails with [`AnalysisError::InsufficientCredits`], saving nothing, when the
/// balance ran out meanwhile (concurrent analyses), and with [`AnalysisError::NotFound`]
/// when the analysis it re-rates is not (or no longer) the user's. A re-rating is stored
/// with its comparison ([`Progress`]). Returns the saved analysis and the balance after it.
pub fn save_and_charge(
    conn: &mut DbConnection,
    new: &NewAnalysis<'_>,
    now: DateTime<Utc>,
) -> Result<(SavedAnalysis, i32), AnalysisError> {
    write_transaction(conn, |conn| {
        let mut report =
            Report::new(new.rating.assessment.clone(), new.suggestions.to_vec(), new.rating.analyzer);
        if let Some(previous) = new.previous {
            let previous = find_for_owner(conn, new.user_id, previous)?;
            report.progress = Some(Progress::between(&previous, &report.assessment));
        }
        let result_json = serde_json::to_string(&report)
            .map_err(|source| AnalysisError::Corrupt { analysis: None, source })?;
        let balance = if new.is_pro {
            ledger::balance(conn, new.user_id)?
        } else {
            ledger::apply(conn, new.user_id, -ANALYSIS_COST, &LedgerReason::Analysis, None, now).map_err(
                |e| match e {
                    setupiq_auth::AuthError::InsufficientCredits { .. } => AnalysisError::InsufficientCredits,
                    other => other.into(),
                },
            )?
        };
        let saved = insert_completed(
            conn,
            Completed {
                user_id: new.user_id,
                input_type: new.input_type,
                input_text: new.input_text,
                image: new.image,
                thumbnail: new.thumbnail,
                report,
                result_json: &result_json,
                created_at: now,
                previous_analysis_id: new.previous,
            },
        )?;
        Ok((saved, balance))
    })
}

/// A delivered analysis to save as completed: a member's own ([`save_and_charge`]) or a
/// visitor's kept result claimed on sign-in ([`visitor::claim`]).
pub(crate) struct Completed<'a> {
    pub user_id: UserId,
    pub input_type: InputType,
    pub input_text: Option<&'a str>,
    pub image: Option<&'a MediaKey>,
    pub thumbnail: Option<&'a MediaKey>,
    pub report: Report,
    /// `report` as stored.
    pub result_json: &'a str,
    pub created_at: DateTime<Utc>,
    /// The analysis it re-rates (checked to be the user's by the caller).
    pub previous_analysis_id: Option<AnalysisId>,
}

/// Inserts `completed` (inside the caller's transaction) and returns it as saved.
pub(crate) fn insert_completed(
    conn: &mut DbConnection,
    completed: Completed<'_>,
) -> Result<SavedAnalysis, AnalysisError> {
    let form = AnalysisInsertForm {
        user_id: completed.user_id,
        input_type: completed.input_type,
        input_text: completed.input_text,
        image_key: completed.image.map(MediaKey::as_str),
        thumbnail_key: completed.thumbnail.map(MediaKey::as_str),
        overall_tenths: (completed.report.assessment.overall_score * 10.0).round() as i32,
        analyzer: completed.report.analyzer.as_str(),
        result_json: completed.result_json,
        status: AnalysisStatus::Completed,
        created_at: completed.created_at.naive_utc(),
        previous_analysis_id: completed.previous_analysis_id,
    };
    let id = repo::insert_analysis(conn, &form)?;
    Ok(SavedAnalysis {
        id,
        user_id: completed.user_id,
        input_type: completed.input_type,
        input_text: completed.input_text.map(str::to_owned),
        image: completed.image.cloned(),
        thumbnail: completed.thumbnail.cloned(),
        report: completed.report,
        status: AnalysisStatus::Completed,
        created_at: completed.created_at,
        share_token: None,
        previous_analysis_id: completed.previous_analysis_id,
    })
}

/// One of the user's own analyses; another user's is "not found".
pub fn find_for_owner(
    conn: &mut DbConnection,
    user_id: UserId,
    id: AnalysisId,
) -> Result<SavedAnalysis, AnalysisError> {
    match repo::find_analysis(conn, id)? {
        Some(row) if row.user_id == user_id => saved(row),
        _ => Err(AnalysisError::NotFound),
    }
}

/// The analyses of `ids` that exist, whoever owns them, in no particular order (one query,
/// for lists that show others' analyses, such as the community feed).
pub fn find_many(conn: &mut DbConnection, ids: &[AnalysisId]) -> Result<Vec<SavedAnalysis>, AnalysisError> {
    repo::find_analyses(conn, ids)?.into_iter().map(saved).collect()
}

/// Whether the user has saved at least one analysis (some activity on the product: the
/// community counts only such users' reports towards hiding a setup).
pub fn has_any(conn: &mut DbConnection, user_id: UserId) -> Result<bool, AnalysisError> {
    Ok(repo::any_analysis_of(conn, user_id)?)
}

/// The user's analyses, newest first, and how many there are in all.
pub fn list_for_owner(
    conn: &mut DbConnection,
    user_id: UserId,
    limit: i64,
    offset: i64,
) -> Result<(Vec<SavedAnalysis>, i64), AnalysisError> {
    let rows = repo::analyses_of(conn, user_id, limit, offset)?;
    let total = repo::count_analyses_of(conn, user_id)?;
    Ok((rows.into_iter().map(saved).collect::<Result<_, _>>()?, total))
}

/// Every analysis of the user, newest first, with its result, photo links and live share
/// path, for their data export (`analyses`). The share path is the owner's own data: the
/// export must say which of their analyses anyone holding the link can read (issue 56).
pub fn export_analyses(conn: &mut DbConnection, user_id: UserId) -> Result<Section, SectionError> {
    let (analyses, _) = list_for_owner(conn, user_id, i64::MAX, 0)?;
    let analyses: Vec<crate::dto::SavedAnalysisDto> = analyses.into_iter().map(Into::into).collect();
    Section::new("analyses", &analyses)
}

pub use setupiq_db::hooks::{AnalysisDependents, MediaOfAnalysis};

/// Deletes one of the owner's analyses with everything that hangs off it (its community
/// post and that post's votes and reports; a RigPage showing it shows no setup). Returns
/// the media keys the caller removes from the media store after the commit. Another
/// user's analysis is "not found".
pub fn delete(
    conn: &mut DbConnection,
    user_id: UserId,
    id: AnalysisId,
    dependents: &AnalysisDependents,
) -> Result<Vec<MediaKey>, AnalysisError> {
    write_transaction(conn, |conn| {
        let analysis = find_for_owner(conn, user_id, id)?;
        let mut media: Vec<MediaKey> = analysis.image.into_iter().chain(analysis.thumbnail).collect();
        for media_of_analysis in &dependents.0 {
            media.extend(media_of_analysis(conn, id)?);
        }
        repo::delete_analysis(conn, id)?;
        Ok(media)
    })
}

/// [`delete`] as the owner asks it: with what every crate keeps for the analysis (the
/// application's [`AnalysisDependents`]), the feed told that its post, if it had one, went,
/// and the photos removed from the media store after the commit.
pub async fn delete_analysis(ctx: &AppCtx, user_id: UserId, id: AnalysisId) -> Result<(), AnalysisError> {
    let hooks = ctx.hooks.clone();
    let media_keys = ctx.db.run(move |conn| delete(conn, user_id, id, &hooks.analysis_dependents)).await?;
    ctx.changes.content_changed();
    ctx.media.remove_media(&media_keys).await;
    tracing::info!(user_id = user_id.0, analysis_id = id.0, "analysis deleted");
    Ok(())
}

/// Every stored image of a user's analyses (registered with the account deletion).
pub fn media_of_user(
    conn: &mut DbConnection,
    user_id: UserId,
    _now: DateTime<Utc>,
) -> Result<Vec<MediaKey>, DieselError> {
    Ok(photo_keys(repo::media_keys_of(conn, user_id)?))
}

/// Every stored image an analysis or a visitor's kept free result ([`visitor`]) names, so
/// that the sweep of unnamed media ([`setupiq_core::media_sweep`]) keeps them (a kept
/// result's photos until [`visitor::purge_expired`] forgets it).
pub fn media_named(conn: &mut DbConnection) -> Result<Vec<MediaKey>, DieselError> {
    let mut keys = photo_keys(repo::all_media_keys(conn)?);
    keys.extend(photo_keys(repo::visitor_media_keys(conn)?));
    Ok(keys)
}

fn photo_keys(rows: Vec<(Option<String>, Option<String>)>) -> Vec<MediaKey> {
    rows.into_iter()
        .flat_map(|(image, thumb)| [image, thumb])
        .flatten()
        .filter_map(|key| MediaKey::parse(&key))
        .collect()
}

pub(crate) fn saved(row: AnalysisRow) -> Result<SavedAnalysis, AnalysisError> {
    let mut report: Report = serde_json::from_str(&row.result_json)
        .map_err(|source| AnalysisError::Corrupt { analysis: Some(row.id), source })?;
    // The saved input type is the word on what was rated (results saved before the
    // assessment said so, or a provider's answer, don't).
    report.assessment.source = Some(row.input_type.source());
    // The analysis it re-rated was deleted: the stored numbers stay, its photo went.
    if row.previous_analysis_id.is_none() {
        report.progress = report.progress.map(Progress::unlinked);
    }
    Ok(SavedAnalysis {
        id: row.id,
        user_id: row.user_id,
        input_type: row.input_type,
        input_text: row.input_text,
        image: row.image_key.as_deref().and_then(MediaKey::parse),
        thumbnail: row.thumbnail_key.as_deref().and_then(MediaKey::parse),
        report,
        status: row.status,
        created_at: row.created_at.and_utc(),
        share_token: row.share_token,
        previous_analysis_id: row.previous_analysis_id,
    })
}
