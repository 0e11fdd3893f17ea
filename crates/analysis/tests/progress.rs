//! Re-rating the same setup (issue 58) on both databases: a chain of three, each compared with
//! the one before; only the user's own analysis can be re-rated; deleting one in the middle
//! keeps the others and the deltas stored with them.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use chrono::{DateTime, Duration, TimeZone, Utc};
use setupiq_analysis::AnalysisError;
use setupiq_analysis::service::{
    self, AnalysisDependents, InputType, NewAnalysis, Requester, SavedAnalysis, suggestions,
};
use setupiq_analyzer::result::{Category, Points, overall_score};
use setupiq_analyzer::{AnalyzerName, Rating, text};
use setupiq_auth::service::ledger;
use setupiq_core::media::{MediaKey, MediaKind};
use setupiq_core::{AnalysisId, UserId};
use setupiq_db::DbConnection;
use setupiq_test_utils::fixtures::FIXTURE_SETUP;
use setupiq_test_utils::{TestDb, both_backends, fixtures};

both_backends!(
    a_chain_of_three_compares_each_with_the_one_before,
    only_ones_own_analysis_can_be_re_rated,
    deleting_the_middle_of_a_chain_keeps_the_others_and_their_deltas,
);

fn noon() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 5, 4, 12, 0, 0).unwrap()
}

/// Scores in the page's order (Cable Management, RGB/Lighting, Desk Cleanliness, Monitor
/// Setup, Chair & Comfort, Aesthetic Vibe), in half points; `None` is unseen.
type Halves = [Option<i32>; 6];

fn rating(scores: Halves) -> Rating {
    let mut assessment = text::assess(FIXTURE_SETUP).unwrap();
    for rating in &mut assessment.category_ratings {
        let at = Category::ALL.iter().position(|&c| c == rating.category).unwrap();
        rating.score = scores[at].map(Points::halves);
    }
    assessment.overall_score = overall_score(&assessment.category_ratings);
    Rating { assessment, analyzer: AnalyzerName::Local }
}

/// Saves a photo analysis of `scores` for a paying (non-Pro) user, re-rating `previous`.
fn save(
    conn: &mut DbConnection,
    user_id: UserId,
    scores: Halves,
    previous: Option<AnalysisId>,
    at: DateTime<Utc>,
) -> Result<SavedAnalysis, AnalysisError> {
    let rating = rating(scores);
    let suggestions = suggestions::suggest(conn, &rating.assessment).unwrap();
    let (photo, thumb) = (
        MediaKey::generate("analyses", MediaKind::Jpeg),
        MediaKey::generate("analysis_thumbs", MediaKind::Jpeg),
    );
    let new = NewAnalysis {
        user_id,
        is_pro: false,
        input_type: InputType::Image,
        input_text: Some("My desk, cables everywhere and a chair."),
        image: Some(&photo),
        thumbnail: Some(&thumb),
        rating: &rating,
        suggestions: &suggestions,
        previous,
    };
    service::save_and_charge(conn, &new, at).map(|(saved, _)| saved)
}

/// Credits bought as a member would (the signup bonus covers three analyses).
fn buy(conn: &mut DbConnection, user_id: UserId, credits: i32) {
    let pack = ledger::LedgerReason::Purchase { package_id: "test".into() };
    ledger::apply(conn, user_id, credits, &pack, None, noon()).unwrap();
}

const FIRST: Halves = [Some(8), Some(10), Some(10), Some(12), None, Some(12)];
const SECOND: Halves = [Some(16), Some(10), Some(11), Some(14), Some(14), Some(12)];
const THIRD: Halves = [Some(18), Some(14), Some(16), Some(14), Some(14), Some(14)];

fn a_chain_of_three_compares_each_with_the_one_before(db: TestDb) {
    let mut conn = db.conn();
    let me = fixtures::account(&mut conn, "chain@example.com");
    let first = save(&mut conn, me.id, FIRST, None, noon()).unwrap();
    assert!(first.report.progress.is_none(), "a first rating compares with nothing");
    let second = save(&mut conn, me.id, SECOND, Some(first.id), noon() + Duration::days(7)).unwrap();

    let progress = second.report.progress.as_ref().expect("a re-rating carries its progress");
    assert_eq!(progress.previous_analysis_id, first.id);
    assert_eq!(progress.previous_overall_score, first.report.assessment.overall_score);
    let expected_delta =
        ((second.report.assessment.overall_score - first.report.assessment.overall_score) * 10.0).round()
            / 10.0;
    assert_eq!(progress.overall_delta, expected_delta);
    assert!(progress.overall_delta > 0.0, "{}", progress.overall_delta);
    // Chair & Comfort was unseen the first time: no delta for it; every other category has one.
    let deltas: Vec<(Category, f64, f64)> =
        progress.category_deltas.iter().map(|d| (d.category, d.from.value(), d.to.value())).collect();
    assert_eq!(
        deltas,
        vec![
            (Category::CableManagement, 4.0, 8.0),
            (Category::RgbLighting, 5.0, 5.0),
            (Category::DeskCleanliness, 5.0, 5.5),
            (Category::MonitorSetup, 6.0, 7.0),
            (Category::AestheticVibe, 6.0, 6.0),
        ]
    );
    // Followed: the first analysis's suggestions whose category rose by a point or more
    // (cables +4, monitors +1), not Desk Cleanliness (+0.5) or the unchanged ones.
    let suggested: Vec<Category> = first.report.suggestions.iter().map(|s| s.category).collect();
    assert!(suggested.contains(&Category::CableManagement), "{suggested:?}");
    let followed: Vec<(Category, &str)> =
        progress.followed_suggestions.iter().map(|f| (f.category, f.title.as_str())).collect();
    let expected: Vec<(Category, &str)> = first
        .report
        .suggestions
        .iter()
        .filter(|s| matches!(s.category, Category::CableManagement | Category::MonitorSetup))
        .map(|s| (s.category, s.title.as_str()))
        .collect();
    assert_eq!(followed, expected);
    assert!(progress.lines.honest.starts_with(&format!("Up {:.1} since last time", progress.overall_delta)));
    // What it re-rated, for the side-by-side view.
    let previous = progress.previous.as_ref().unwrap();
    assert_eq!(previous.image_key.as_deref(), first.image.as_ref().map(MediaKey::as_str));

    // The third continues the chain from the second.
    let third = save(&mut conn, me.id, THIRD, Some(second.id), noon() + Duration::days(14)).unwrap();
    let progress = third.report.progress.as_ref().unwrap();
    assert_eq!(progress.previous_analysis_id, second.id);
    assert_eq!(progress.previous_overall_score, second.report.assessment.overall_score);
    assert_eq!(progress.category_deltas.len(), 6, "every category seen both times");

    // History says who re-rated whom, and gives back the stored progress as delivered.
    let (mine, _) = service::list_for_owner(&mut conn, me.id, 50, 0).unwrap();
    let links: Vec<(AnalysisId, Option<AnalysisId>)> =
        mine.iter().map(|a| (a.id, a.previous_analysis_id)).collect();
    assert_eq!(links, vec![(third.id, Some(second.id)), (second.id, Some(first.id)), (first.id, None)]);
    assert_eq!(mine[0].report.progress, third.report.progress);
}

fn only_ones_own_analysis_can_be_re_rated(db: TestDb) {
    let mut conn = db.conn();
    let me = fixtures::account(&mut conn, "mine@example.com");
    let other = fixtures::account(&mut conn, "theirs@example.com");
    let theirs = save(&mut conn, other.id, FIRST, None, noon()).unwrap();
    let balance = ledger::balance(&mut conn, me.id).unwrap();

    // Refused before any work, as "not found"...
    let asking = Requester::User { id: me.id, is_pro: false, credits: balance };
    let early = service::check_previous(&mut conn, &asking, theirs.id);
    assert!(matches!(early, Err(AnalysisError::NotFound)), "{early:?}");
    let missing = service::check_previous(&mut conn, &asking, AnalysisId(theirs.id.0 + 1000));
    assert!(matches!(missing, Err(AnalysisError::NotFound)), "{missing:?}");
    let visitor = Requester::Visitor { visitor_hash: "a".repeat(64), ip: "203.0.113.9".into() };
    let anonymous = service::check_previous(&mut conn, &visitor, theirs.id);
    assert!(matches!(anonymous, Err(AnalysisError::NotFound)), "{anonymous:?}");
    // ...and at save: nothing saved, nothing charged.
    let saved = save(&mut conn, me.id, SECOND, Some(theirs.id), noon());
    assert!(matches!(saved, Err(AnalysisError::NotFound)), "{saved:?}");
    assert_eq!(service::list_for_owner(&mut conn, me.id, 50, 0).unwrap().1, 0);
    assert_eq!(ledger::balance(&mut conn, me.id).unwrap(), balance);
    // The other's analysis is untouched, and theirs to re-rate.
    assert!(
        service::check_previous(
            &mut conn,
            &Requester::User { id: other.id, is_pro: false, credits: 1 },
            theirs.id
        )
        .is_ok()
    );
}

fn deleting_the_middle_of_a_chain_keeps_the_others_and_their_deltas(db: TestDb) {
    let mut conn = db.conn();
    let me = fixtures::account(&mut conn, "middle@example.com");
    buy(&mut conn, me.id, 2);
    let first = save(&mut conn, me.id, FIRST, None, noon()).unwrap();
    let second = save(&mut conn, me.id, SECOND, Some(first.id), noon() + Duration::days(1)).unwrap();
    let third = save(&mut conn, me.id, THIRD, Some(second.id), noon() + Duration::days(2)).unwrap();
    let stored = third.report.progress.clone().unwrap();

    let removed = service::delete(&mut conn, me.id, second.id, &AnalysisDependents::default()).unwrap();
    assert_eq!(removed.len(), 2, "the deleted analysis's photo and thumbnail go");

    let (mine, total) = service::list_for_owner(&mut conn, me.id, 50, 0).unwrap();
    assert_eq!(total, 2);
    let (now_third, now_first) = (&mine[0], &mine[1]);
    assert_eq!((now_third.id, now_first.id), (third.id, first.id));
    // The third is unlinked but keeps the numbers it was delivered with; the photo it was
    // compared with is gone, so it is no longer offered.
    assert_eq!(now_third.previous_analysis_id, None);
    let kept = now_third.report.progress.as_ref().expect("the deltas stay with the later analysis");
    assert_eq!(kept.previous_analysis_id, second.id);
    assert_eq!(kept.previous_overall_score, stored.previous_overall_score);
    assert_eq!(kept.overall_delta, stored.overall_delta);
    assert_eq!(kept.category_deltas, stored.category_deltas);
    assert_eq!(kept.followed_suggestions, stored.followed_suggestions);
    assert!(kept.previous.is_none());
    // The first is as it was, and can start a new chain.
    assert_eq!(now_first.report.assessment.category_ratings, first.report.assessment.category_ratings);
    assert_eq!(now_first.report.suggestions, first.report.suggestions);
    assert!(now_first.report.progress.is_none());
    let again = save(&mut conn, me.id, SECOND, Some(first.id), noon() + Duration::days(3)).unwrap();
    assert_eq!(again.previous_analysis_id, Some(first.id));
    // Re-rating the deleted one is not found.
    let gone = save(&mut conn, me.id, THIRD, Some(second.id), noon() + Duration::days(3));
    assert!(matches!(gone, Err(AnalysisError::NotFound)), "{gone:?}");
}
