//! The community's rules on both databases: publishing (own analyses, photos, the daily
//! cap), votes (toggle, switch, never on one's own, races), reports (once per user, the
//! reporter stops seeing it, three hide it), deletion by owner or admin, and what an
//! account deletion takes back. After every vote the kept score equals its votes.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use chrono::{DateTime, Duration, TimeZone, Utc};
use setupiq_auth::service::accounts::{self, OwnedMedia};
use setupiq_community::CommunityError;
use setupiq_community::service::reports::{self, ReportReason};
use setupiq_community::service::setups::{self, NewSetup, StoredImage};
use setupiq_community::service::votes::{self, Vote};
use setupiq_core::media::{MediaKey, MediaKind};
use setupiq_db::DbConnection;
use setupiq_test_utils::{TestDb, both_backends, fixtures};

fn noon() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 7, 1, 12, 0, 0).single().unwrap()
}

fn stored(n: usize) -> Vec<StoredImage> {
    (0..n)
        .map(|_| StoredImage {
            image: MediaKey::generate("community", MediaKind::Jpeg),
            thumbnail: MediaKey::generate("community_thumbs", MediaKind::Jpeg),
        })
        .collect()
}

/// A setup of `user_id`'s photo analysis, published at `at`.
fn published(conn: &mut DbConnection, user_id: i64, at: DateTime<Utc>) -> i64 {
    let analysis_id = fixtures::analysis(conn, user_id, true, at);
    let new = NewSetup { user_id, analysis_id, title: Some("My rig"), description: None, images: &[] };
    setups::publish(conn, &new, at).unwrap()
}

fn assert_score(conn: &mut DbConnection, setup_id: i64, score: i32) {
    assert_eq!(setups::find(conn, setup_id).unwrap().score, score);
    assert!(votes::score_matches_votes(conn, setup_id).unwrap(), "score == sum of votes");
}

both_backends!(
    a_setup_shows_the_analysis_photo_or_the_photos_stored_for_it,
    a_user_publishes_at_most_ten_setups_a_day,
    the_same_vote_again_takes_it_back_and_the_other_switches_it,
    nobody_votes_on_their_own_setup,
    twelve_simultaneous_identical_votes_leave_a_consistent_score,
    users_voting_at_once_all_count,
    a_report_counts_once_hides_it_from_the_reporter_and_three_hide_it,
    a_user_files_at_most_twenty_reports_a_day,
    only_the_owner_or_an_admin_deletes_and_the_post_photos_go_with_it,
    a_deleted_account_takes_its_votes_out_of_the_scores,
);

fn a_setup_shows_the_analysis_photo_or_the_photos_stored_for_it(db: TestDb) {
    let mut conn = db.conn();
    let me = fixtures::account(&mut conn, "pub@example.com");
    let other = fixtures::account(&mut conn, "pub-other@example.com");
    let photo = fixtures::analysis(&mut conn, me.id, true, noon());
    let described = fixtures::analysis(&mut conn, me.id, false, noon());
    let new = |analysis_id, images| NewSetup {
        user_id: me.id,
        analysis_id,
        title: None,
        description: None,
        images,
    };

    let own = setups::publish(&mut conn, &new(photo, &[]), noon()).unwrap();
    let setup = setups::find(&mut conn, own).unwrap();
    assert_eq!(setup.images.len(), 1);
    assert!(!setup.images[0].owned, "the analysis's photo stays the analysis's");

    assert!(matches!(
        setups::publish(&mut conn, &new(described, &[]), noon()),
        Err(CommunityError::ImagesRequired)
    ));
    let photos = stored(2);
    let with_photos = setups::publish(&mut conn, &new(described, &photos), noon()).unwrap();
    let setup = setups::find(&mut conn, with_photos).unwrap();
    assert_eq!(
        setup.images.iter().map(|i| i.image.clone()).collect::<Vec<_>>(),
        [photos[0].image.clone(), photos[1].image.clone()]
    );
    assert!(setup.images.iter().all(|i| i.owned));

    let six = stored(6);
    assert!(matches!(
        setups::publish(&mut conn, &new(photo, &six), noon()),
        Err(CommunityError::TooManyImages)
    ));
    let theirs = fixtures::analysis(&mut conn, other.id, true, noon());
    assert!(matches!(
        setups::publish(&mut conn, &new(theirs, &[]), noon()),
        Err(CommunityError::AnalysisNotFound)
    ));
}

fn a_user_publishes_at_most_ten_setups_a_day(db: TestDb) {
    let mut conn = db.conn();
    let me = fixtures::account(&mut conn, "cap@example.com");
    for _ in 0..setups::DAILY_POST_LIMIT {
        published(&mut conn, me.id, noon());
    }
    let analysis_id = fixtures::analysis(&mut conn, me.id, true, noon());
    let new = NewSetup { user_id: me.id, analysis_id, title: None, description: None, images: &[] };
    match setups::publish(&mut conn, &new, noon()) {
        Err(CommunityError::DailyPostLimit { limit: 10, retry_after }) => assert_eq!(retry_after, 12 * 3600),
        other => panic!("{other:?}"),
    }
    setups::publish(&mut conn, &new, noon() + Duration::hours(12)).unwrap();
}

fn the_same_vote_again_takes_it_back_and_the_other_switches_it(db: TestDb) {
    let mut conn = db.conn();
    let owner = fixtures::account(&mut conn, "owner@example.com");
    let me = fixtures::account(&mut conn, "voter@example.com");
    let setup = published(&mut conn, owner.id, noon());
    let mut cast = |vote| votes::vote(&mut conn, me.id, setup, vote, noon()).unwrap();
    assert_eq!(cast(Vote::Up), votes::Voted { score: 1, user_vote: Some(Vote::Up) });
    assert_eq!(cast(Vote::Up), votes::Voted { score: 0, user_vote: None }, "the same again takes it back");
    assert_eq!(cast(Vote::Down), votes::Voted { score: -1, user_vote: Some(Vote::Down) });
    assert_eq!(cast(Vote::Up), votes::Voted { score: 1, user_vote: Some(Vote::Up) }, "switching moves by 2");
    assert_score(&mut conn, setup, 1);
    assert_eq!(setups::find(&mut conn, setup).unwrap().upvotes, 1);
    assert!(matches!(
        votes::vote(&mut conn, me.id, 999_999, Vote::Up, noon()),
        Err(CommunityError::SetupNotFound)
    ));
}

fn nobody_votes_on_their_own_setup(db: TestDb) {
    let mut conn = db.conn();
    let me = fixtures::account(&mut conn, "self@example.com");
    let setup = published(&mut conn, me.id, noon());
    assert!(matches!(votes::vote(&mut conn, me.id, setup, Vote::Up, noon()), Err(CommunityError::OwnVote)));
    assert_score(&mut conn, setup, 0);
}

fn twelve_simultaneous_identical_votes_leave_a_consistent_score(db: TestDb) {
    let owner = fixtures::account(&mut db.conn(), "race-owner@example.com");
    let me = fixtures::account(&mut db.conn(), "race-voter@example.com");
    let setup = published(&mut db.conn(), owner.id, noon());
    let results: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..12)
            .map(|_| s.spawn(|| votes::vote(&mut db.conn(), me.id, setup, Vote::Up, noon())))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(results.iter().all(Result::is_ok), "{results:?}");
    // Twelve toggles, one after the other: the vote is back where it started.
    assert_score(&mut db.conn(), setup, 0);
}

fn users_voting_at_once_all_count(db: TestDb) {
    let owner = fixtures::account(&mut db.conn(), "many-owner@example.com");
    let voters: Vec<_> =
        (0..8).map(|i| fixtures::account(&mut db.conn(), &format!("many-{i}@example.com"))).collect();
    let setup = published(&mut db.conn(), owner.id, noon());
    std::thread::scope(|s| {
        for voter in &voters {
            s.spawn(|| votes::vote(&mut db.conn(), voter.id, setup, Vote::Up, noon()).unwrap());
        }
    });
    assert_score(&mut db.conn(), setup, 8);
}

fn a_report_counts_once_hides_it_from_the_reporter_and_three_hide_it(db: TestDb) {
    let mut conn = db.conn();
    let owner = fixtures::account(&mut conn, "reported@example.com");
    let [a, b, c, d] =
        ["ra", "rb", "rc", "rd"].map(|n| fixtures::account(&mut conn, &format!("{n}@example.com")));
    let setup = published(&mut conn, owner.id, noon());
    let mut file =
        |user: i64| reports::report(&mut conn, user, setup, ReportReason::Spam, Some("ads"), noon());

    assert_eq!(file(a.id).unwrap(), reports::Reported { counted: true, hidden: false });
    assert_eq!(
        file(a.id).unwrap(),
        reports::Reported { counted: false, hidden: false },
        "a repeat counts nothing"
    );
    assert!(matches!(file(owner.id), Err(CommunityError::OwnReport)));
    let visible =
        |conn: &mut DbConnection, viewer: Option<i64>| reports::visible_to(conn, setup, viewer).unwrap();
    assert!(!visible(&mut conn, Some(a.id)), "the reporter no longer sees it");
    assert!(visible(&mut conn, Some(b.id)) && visible(&mut conn, None));

    reports::report(&mut conn, b.id, setup, ReportReason::Copyright, None, noon()).unwrap();
    let third = reports::report(&mut conn, c.id, setup, ReportReason::HateSpeech, None, noon()).unwrap();
    assert_eq!(third, reports::Reported { counted: true, hidden: true }, "three open reports hide it");
    assert!(!visible(&mut conn, Some(d.id)) && !visible(&mut conn, None));
    assert!(visible(&mut conn, Some(owner.id)), "its owner still sees it");
    assert_eq!(setups::find(&mut conn, setup).unwrap().open_reports, 3);
    assert!(matches!(
        votes::vote(&mut conn, d.id, setup, Vote::Up, noon()),
        Err(CommunityError::SetupNotFound)
    ));
}

fn a_user_files_at_most_twenty_reports_a_day(db: TestDb) {
    let mut conn = db.conn();
    let uploaders: Vec<_> =
        (0..3).map(|i| fixtures::account(&mut conn, &format!("up{i}@example.com"))).collect();
    let me = fixtures::account(&mut conn, "reporter@example.com");
    let setups: Vec<i64> =
        (0..21).map(|i| published(&mut conn, uploaders[i % 3].id, noon() - Duration::days(1))).collect();
    for setup in &setups[..20] {
        reports::report(&mut conn, me.id, *setup, ReportReason::Spam, None, noon()).unwrap();
    }
    assert!(matches!(
        reports::report(&mut conn, me.id, setups[20], ReportReason::Spam, None, noon()),
        Err(CommunityError::DailyReportLimit { .. })
    ));
    reports::report(&mut conn, me.id, setups[20], ReportReason::Spam, None, noon() + Duration::days(1))
        .unwrap();
}

fn only_the_owner_or_an_admin_deletes_and_the_post_photos_go_with_it(db: TestDb) {
    let mut conn = db.conn();
    let owner = fixtures::account(&mut conn, "del-owner@example.com");
    let voter = fixtures::account(&mut conn, "del-voter@example.com");
    let analysis_id = fixtures::analysis(&mut conn, owner.id, false, noon());
    let photos = stored(2);
    let new = NewSetup { user_id: owner.id, analysis_id, title: None, description: None, images: &photos };
    let setup = setups::publish(&mut conn, &new, noon()).unwrap();
    votes::vote(&mut conn, voter.id, setup, Vote::Up, noon()).unwrap();
    reports::report(&mut conn, voter.id, setup, ReportReason::Spam, None, noon()).unwrap();

    assert!(matches!(setups::delete(&mut conn, voter.id, false, setup), Err(CommunityError::NotOwner)));
    let mut removed = setups::delete(&mut conn, owner.id, false, setup).unwrap();
    removed.sort_by(|a, b| a.as_str().cmp(b.as_str()));
    let mut expected: Vec<MediaKey> =
        photos.iter().flat_map(|p| [p.image.clone(), p.thumbnail.clone()]).collect();
    expected.sort_by(|a, b| a.as_str().cmp(b.as_str()));
    assert_eq!(removed, expected);
    assert!(matches!(setups::find(&mut conn, setup), Err(CommunityError::SetupNotFound)));

    // An admin may delete anyone's; the analysis's own photo is not the post's to remove.
    let other = published(&mut conn, owner.id, noon());
    assert!(setups::delete(&mut conn, voter.id, true, other).unwrap().is_empty());
}

fn a_deleted_account_takes_its_votes_out_of_the_scores(db: TestDb) {
    let mut conn = db.conn();
    let owner = fixtures::account(&mut conn, "acct-owner@example.com");
    let stays = fixtures::account(&mut conn, "acct-stays@example.com");
    let leaves = fixtures::account(&mut conn, "acct-leaves@example.com");
    let first = published(&mut conn, owner.id, noon());
    let second = published(&mut conn, owner.id, noon());
    votes::vote(&mut conn, leaves.id, first, Vote::Up, noon()).unwrap();
    votes::vote(&mut conn, leaves.id, second, Vote::Down, noon()).unwrap();
    votes::vote(&mut conn, stays.id, first, Vote::Up, noon()).unwrap();

    let hooks = OwnedMedia(vec![setups::on_account_deleted]);
    accounts::delete_account_with(&mut conn, leaves.id, &hooks).unwrap();
    assert_score(&mut conn, first, 1);
    assert_score(&mut conn, second, 0);
    assert_eq!(setups::find(&mut conn, first).unwrap().upvotes, 1);

    // The uploader's account takes their setups with it.
    accounts::delete_account_with(&mut conn, owner.id, &hooks).unwrap();
    assert!(matches!(setups::find(&mut conn, first), Err(CommunityError::SetupNotFound)));
}
