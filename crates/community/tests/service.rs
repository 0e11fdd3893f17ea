//! The community's rules on both databases: publishing (own analyses, photos, the daily
//! cap), votes (a verified address, toggle, switch, never on one's own, races), reports (a
//! verified address, once per user, the reporter stops seeing it, three hide it), deletion by owner or admin, and what an
//! account deletion takes back. After every vote the kept score equals its votes.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use chrono::{DateTime, Duration, TimeZone, Utc};
use diesel::prelude::*;
use setupiq_analysis::service::find_for_owner;
use setupiq_auth::Account;
use setupiq_auth::service::accounts::{self, OwnedMedia};
use setupiq_auth::service::verify;
use setupiq_community::CommunityError;
use setupiq_community::service::comments::{self, Written};
use setupiq_community::service::moderation;
use setupiq_community::service::reports::{self, NewReport, ReportReason};
use setupiq_community::service::setups::{self, NewSetup, PostImage, PostText, StoredImage};
use setupiq_community::service::votes::{self, Vote};
use setupiq_core::feed_changes::FeedChanges;
use setupiq_core::media::{MediaKey, MediaKind};
use setupiq_core::{AnalysisId, SetupId, UserId};
use setupiq_db::DbConnection;
use setupiq_db::schema::community_votes;
use setupiq_test_utils::{TestDb, both_backends, fixtures};

fn noon() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 7, 1, 12, 0, 0).single().unwrap()
}

/// `n` photos as if stored for a post.
fn stored(n: usize) -> Vec<PostImage> {
    (0..n)
        .map(|_| {
            PostImage::New(StoredImage {
                image: MediaKey::generate("community", MediaKind::Jpeg),
                thumbnail: MediaKey::generate("community_thumbs", MediaKind::Jpeg),
            })
        })
        .collect()
}

fn new_photo(image: &PostImage) -> &StoredImage {
    match image {
        PostImage::New(photo) => photo,
        PostImage::Keep(key) => panic!("{key:?} was not stored for the post"),
    }
}

/// A setup of `user_id`'s photo analysis, published at `at`.
fn published(conn: &mut DbConnection, user_id: UserId, at: DateTime<Utc>) -> SetupId {
    let analysis_id = fixtures::analysis(conn, user_id, true, at);
    let text = PostText { title: Some("My rig".into()), description: None };
    let new = NewSetup { user_id, analysis_id, text: &text, images: &[], before: None };
    setups::publish(conn, &new, at).unwrap()
}

/// A member whose address is verified (at noon): one who may vote, report and comment.
fn member(conn: &mut DbConnection, email: &str) -> Account {
    fixtures::verified_account(conn, email, noon())
}

/// `reporter`'s spam report of `setup` at noon, with no feed to tell.
fn report_spam(
    conn: &mut DbConnection,
    reporter: &Account,
    setup: SetupId,
) -> Result<reports::Reported, CommunityError> {
    reports::report(
        conn,
        reporter,
        setup,
        NewReport::new(ReportReason::Spam, None),
        noon(),
        &FeedChanges::default(),
    )
}

fn assert_score(conn: &mut DbConnection, setup_id: SetupId, score: i32) {
    let setup = setups::find(conn, setup_id).unwrap();
    assert_eq!(setup.score, score);
    // The invariant: the kept score and upvotes are what the votes themselves add up to.
    let values: Vec<i32> = community_votes::table
        .filter(community_votes::setup_id.eq(setup_id))
        .select(community_votes::value)
        .load(conn)
        .unwrap();
    let upvotes = values.iter().filter(|v| **v == 1).count();
    assert_eq!(setup.score, values.iter().sum::<i32>(), "score == sum of votes");
    assert_eq!(usize::try_from(setup.upvotes).unwrap(), upvotes, "upvotes == count of upvotes");
}

both_backends!(
    a_setup_shows_the_analysis_photo_or_the_photos_stored_for_it,
    a_user_publishes_at_most_ten_setups_a_day,
    an_analysis_is_published_once_even_by_simultaneous_requests,
    the_same_vote_again_takes_it_back_and_the_other_switches_it,
    nobody_votes_on_their_own_setup,
    an_unverified_member_neither_votes_nor_reports_until_the_address_is_verified,
    twelve_simultaneous_identical_votes_leave_a_consistent_score,
    users_voting_at_once_all_count,
    a_report_counts_once_hides_it_from_the_reporter_and_three_hide_it,
    a_user_files_at_most_twenty_reports_a_day,
    reports_from_fresh_accounts_reach_the_queue_but_do_not_hide_the_setup,
    a_network_files_at_most_twenty_reports_a_day,
    only_the_owner_or_an_admin_deletes_and_the_post_photos_go_with_it,
    a_deleted_account_takes_its_votes_out_of_the_scores,
    an_upvote_into_the_weeks_top_three_tells_the_owner_once,
    a_week_of_two_posts_has_no_top_three_to_reach,
);

fn a_setup_shows_the_analysis_photo_or_the_photos_stored_for_it(db: TestDb) {
    let mut conn = db.conn();
    let me = fixtures::account(&mut conn, "pub@example.com");
    let other = fixtures::account(&mut conn, "pub-other@example.com");
    let photo = fixtures::analysis(&mut conn, me.id, true, noon());
    let described = fixtures::analysis(&mut conn, me.id, false, noon());
    // An analysis is published once: each post below that must succeed, or fail for its
    // photos, starts from an analysis of its own.
    let fresh = |photo: bool| fixtures::analysis(&mut db.conn(), me.id, photo, noon());
    static NO_TEXT: PostText = PostText { title: None, description: None };
    fn post(user_id: UserId, analysis_id: AnalysisId, images: &[PostImage]) -> NewSetup<'_> {
        NewSetup { user_id, analysis_id, text: &NO_TEXT, images, before: None }
    }

    let own = setups::publish(&mut conn, &post(me.id, photo, &[]), noon()).unwrap();
    let setup = setups::find(&mut conn, own).unwrap();
    assert_eq!(setup.images.len(), 1);
    assert!(!setup.images[0].owned, "the analysis's photo stays the analysis's");

    assert!(matches!(
        setups::publish(&mut conn, &post(me.id, described, &[]), noon()),
        Err(CommunityError::ImagesRequired)
    ));
    let photos = stored(2);
    let with_photos = setups::publish(&mut conn, &post(me.id, described, &photos), noon()).unwrap();
    let setup = setups::find(&mut conn, with_photos).unwrap();
    assert_eq!(
        setup.images.iter().map(|i| i.image.clone()).collect::<Vec<_>>(),
        [new_photo(&photos[0]).image.clone(), new_photo(&photos[1]).image.clone()]
    );
    assert!(setup.images.iter().all(|i| i.owned));

    // The analysis's own photo placed among extra photos: kept by reference, not copied.
    let photo = fresh(true);
    let own_photo = find_for_owner(&mut conn, me.id, photo).unwrap().image.unwrap();
    let extras = stored(2);
    let mixed = [extras[0].clone(), PostImage::Keep(own_photo.clone()), extras[1].clone()];
    let mixed_id = setups::publish(&mut conn, &post(me.id, photo, &mixed), noon()).unwrap();
    let setup = setups::find(&mut conn, mixed_id).unwrap();
    assert_eq!(
        setup.images.iter().map(|i| (i.image.clone(), i.owned)).collect::<Vec<_>>(),
        [
            (new_photo(&extras[0]).image.clone(), true),
            (own_photo.clone(), false),
            (new_photo(&extras[1]).image.clone(), true)
        ]
    );
    assert!(setup.images[1].thumbnail.is_some(), "the analysis's thumbnail comes with its photo");
    // Only the analysis's own photo can be kept, and only once.
    let twice = fresh(true);
    let twice_photo = find_for_owner(&mut conn, me.id, twice).unwrap().image.unwrap();
    for (analysis, kept) in [
        (twice, vec![PostImage::Keep(twice_photo.clone()), PostImage::Keep(twice_photo)]),
        (fresh(true), vec![PostImage::Keep(new_photo(&extras[0]).image.clone())]),
    ] {
        assert!(matches!(
            setups::publish(&mut conn, &post(me.id, analysis, &kept), noon()),
            Err(CommunityError::UnknownImage)
        ));
    }
    assert!(matches!(
        setups::publish(&mut conn, &post(me.id, fresh(false), &[PostImage::Keep(own_photo)]), noon()),
        Err(CommunityError::UnknownImage)
    ));

    let six = stored(6);
    assert!(matches!(
        setups::publish(&mut conn, &post(me.id, photo, &six), noon()),
        Err(CommunityError::TooManyImages)
    ));
    let theirs = fixtures::analysis(&mut conn, other.id, true, noon());
    assert!(matches!(
        setups::publish(&mut conn, &post(me.id, theirs, &[]), noon()),
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
    let new = NewSetup { user_id: me.id, analysis_id, text: &PostText::default(), images: &[], before: None };
    match setups::publish(&mut conn, &new, noon()) {
        Err(CommunityError::DailyPostLimit { limit: 10, retry_after }) => assert_eq!(retry_after, 12 * 3600),
        other => panic!("{other:?}"),
    }
    setups::publish(&mut conn, &new, noon() + Duration::hours(12)).unwrap();
}

fn an_analysis_is_published_once_even_by_simultaneous_requests(db: TestDb) {
    let me = fixtures::account(&mut db.conn(), "once@example.com");
    let analysis_id = fixtures::analysis(&mut db.conn(), me.id, true, noon());
    let new = NewSetup { user_id: me.id, analysis_id, text: &PostText::default(), images: &[], before: None };
    let results: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> =
            (0..6).map(|_| s.spawn(|| setups::publish(&mut db.conn(), &new, noon()))).collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let posted: Vec<SetupId> = results.iter().filter_map(|r| r.as_ref().ok().copied()).collect();
    assert_eq!(posted.len(), 1, "{results:?}");
    let setup_id = posted[0];
    for refused in results.iter().filter(|r| r.is_err()) {
        assert!(
            matches!(refused, Err(CommunityError::AlreadyPublished { setup_id: id }) if *id == setup_id),
            "{refused:?}"
        );
    }
    // The cheap check before any photo is decoded says the same.
    assert!(matches!(
        setups::check_publish(&mut db.conn(), me.id, analysis_id, noon()),
        Err(CommunityError::AlreadyPublished { setup_id: id }) if id == setup_id
    ));
    // Once its post is deleted, the analysis may be published again.
    setups::delete(&mut db.conn(), me.id, false, setup_id, &FeedChanges::default()).unwrap();
    setups::check_publish(&mut db.conn(), me.id, analysis_id, noon()).unwrap();
    setups::publish(&mut db.conn(), &new, noon()).unwrap();
}

fn the_same_vote_again_takes_it_back_and_the_other_switches_it(db: TestDb) {
    let mut conn = db.conn();
    let owner = fixtures::account(&mut conn, "owner@example.com");
    let me = member(&mut conn, "voter@example.com");
    let setup = published(&mut conn, owner.id, noon());
    let mut cast = |vote| votes::vote(&mut conn, &me, setup, vote, noon(), &FeedChanges::default()).unwrap();
    assert_eq!(cast(Vote::Up), votes::Voted { score: 1, user_vote: Some(Vote::Up) });
    assert_eq!(cast(Vote::Up), votes::Voted { score: 0, user_vote: None }, "the same again takes it back");
    assert_eq!(cast(Vote::Down), votes::Voted { score: -1, user_vote: Some(Vote::Down) });
    assert_eq!(cast(Vote::Up), votes::Voted { score: 1, user_vote: Some(Vote::Up) }, "switching moves by 2");
    assert_score(&mut conn, setup, 1);
    assert_eq!(setups::find(&mut conn, setup).unwrap().upvotes, 1);
    assert!(matches!(
        votes::vote(&mut conn, &me, SetupId(999_999), Vote::Up, noon(), &FeedChanges::default()),
        Err(CommunityError::SetupNotFound)
    ));
}

fn nobody_votes_on_their_own_setup(db: TestDb) {
    let mut conn = db.conn();
    let me = member(&mut conn, "self@example.com");
    let setup = published(&mut conn, me.id, noon());
    assert!(matches!(
        votes::vote(&mut conn, &me, setup, Vote::Up, noon(), &FeedChanges::default()),
        Err(CommunityError::OwnVote)
    ));
    assert_score(&mut conn, setup, 0);
}

/// Sign-ups per address are capped, not scarce: votes and reports wait for an address that
/// is the member's own, as comments do.
fn an_unverified_member_neither_votes_nor_reports_until_the_address_is_verified(db: TestDb) {
    let mut conn = db.conn();
    let owner = member(&mut conn, "unverified-owner@example.com");
    let commenter = member(&mut conn, "unverified-commenter@example.com");
    let fresh = fixtures::account(&mut conn, "unverified-fresh@example.com");
    let setup = published(&mut conn, owner.id, noon());
    let written = Written { setup_id: setup, parent_id: None, body: "Nice lamp" };
    let comment =
        comments::comment(&mut conn, &commenter, written, noon(), None, &FeedChanges::default()).unwrap();

    for vote in [Vote::Up, Vote::Down] {
        assert!(matches!(
            votes::vote(&mut conn, &fresh, setup, vote, noon(), &FeedChanges::default()),
            Err(CommunityError::VoteNeedsVerifiedEmail)
        ));
    }
    assert_score(&mut conn, setup, 0);
    assert_eq!(setups::find(&mut conn, setup).unwrap().upvotes, 0);
    assert!(matches!(report_spam(&mut conn, &fresh, setup), Err(CommunityError::ReportNeedsVerifiedEmail)));
    assert!(matches!(
        reports::report_comment(&mut conn, &fresh, comment, NewReport::new(ReportReason::Spam, None), noon()),
        Err(CommunityError::ReportNeedsVerifiedEmail)
    ));
    assert!(moderation::queue(&mut conn).unwrap().is_empty(), "no report of the setup was filed");
    assert!(moderation::comment_queue(&mut conn).unwrap().is_empty(), "nor of the comment");
    assert!(reports::visible_to(&mut conn, Some(fresh.id), setup).unwrap(), "they still see the setup");

    // The link followed, the same member's vote and report count.
    let link = verify::create_link(&mut conn, fresh.id, noon()).unwrap();
    let verified = verify::verify(&mut conn, &link.token, &[], noon()).unwrap().account;
    let voted = votes::vote(&mut conn, &verified, setup, Vote::Up, noon(), &FeedChanges::default()).unwrap();
    assert_eq!(voted, votes::Voted { score: 1, user_vote: Some(Vote::Up) });
    assert_score(&mut conn, setup, 1);
    assert!(report_spam(&mut conn, &verified, setup).unwrap().counted);
    assert_eq!(moderation::queue(&mut conn).unwrap()[0].reports.len(), 1);
}

fn twelve_simultaneous_identical_votes_leave_a_consistent_score(db: TestDb) {
    let owner = fixtures::account(&mut db.conn(), "race-owner@example.com");
    let me = member(&mut db.conn(), "race-voter@example.com");
    let setup = published(&mut db.conn(), owner.id, noon());
    let results: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..12)
            .map(|_| {
                s.spawn(|| votes::vote(&mut db.conn(), &me, setup, Vote::Up, noon(), &FeedChanges::default()))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(results.iter().all(Result::is_ok), "{results:?}");
    // Twelve toggles, one after the other: the vote is back where it started.
    assert_score(&mut db.conn(), setup, 0);
}

fn users_voting_at_once_all_count(db: TestDb) {
    let owner = fixtures::account(&mut db.conn(), "many-owner@example.com");
    let voters: Vec<_> = (0..8).map(|i| member(&mut db.conn(), &format!("many-{i}@example.com"))).collect();
    let setup = published(&mut db.conn(), owner.id, noon());
    std::thread::scope(|s| {
        for voter in &voters {
            s.spawn(|| {
                votes::vote(&mut db.conn(), voter, setup, Vote::Up, noon(), &FeedChanges::default()).unwrap()
            });
        }
    });
    assert_score(&mut db.conn(), setup, 8);
}

fn a_report_counts_once_hides_it_from_the_reporter_and_three_hide_it(db: TestDb) {
    let mut conn = db.conn();
    let owner = member(&mut conn, "reported@example.com");
    let [a, b, c, d] = ["ra", "rb", "rc", "rd"]
        .map(|n| fixtures::established_reporter(&mut conn, &format!("{n}@example.com"), noon()));
    let setup = published(&mut conn, owner.id, noon());
    let mut file = |user: &Account| {
        reports::report(
            &mut conn,
            user,
            setup,
            NewReport::new(ReportReason::Spam, Some("ads")),
            noon(),
            &FeedChanges::default(),
        )
    };

    assert_eq!(file(&a).unwrap(), reports::Reported { counted: true, hidden: false });
    assert_eq!(
        file(&a).unwrap(),
        reports::Reported { counted: false, hidden: false },
        "a repeat counts nothing"
    );
    assert!(matches!(file(&owner), Err(CommunityError::OwnReport)));
    let visible =
        |conn: &mut DbConnection, viewer: Option<UserId>| reports::visible_to(conn, viewer, setup).unwrap();
    assert!(!visible(&mut conn, Some(a.id)), "the reporter no longer sees it");
    assert!(visible(&mut conn, Some(b.id)) && visible(&mut conn, None));

    reports::report(
        &mut conn,
        &b,
        setup,
        NewReport::new(ReportReason::Copyright, None),
        noon(),
        &FeedChanges::default(),
    )
    .unwrap();
    let third = reports::report(
        &mut conn,
        &c,
        setup,
        NewReport::new(ReportReason::HateSpeech, None),
        noon(),
        &FeedChanges::default(),
    )
    .unwrap();
    assert_eq!(third, reports::Reported { counted: true, hidden: true }, "three open reports hide it");
    assert!(!visible(&mut conn, Some(d.id)) && !visible(&mut conn, None));
    assert!(visible(&mut conn, Some(owner.id)), "its owner still sees it");
    assert_eq!(setups::find(&mut conn, setup).unwrap().open_reports, 3);
    assert!(matches!(
        votes::vote(&mut conn, &d, setup, Vote::Up, noon(), &FeedChanges::default()),
        Err(CommunityError::SetupNotFound)
    ));
}

fn an_upvote_into_the_weeks_top_three_tells_the_owner_once(db: TestDb) {
    use setupiq_community::service::notifications::{self, NotificationKind};

    let mut conn = db.conn();
    let voters: Vec<Account> =
        (0..5).map(|i| member(&mut conn, &format!("top-voter{i}@example.com"))).collect();
    let mine = fixtures::account(&mut conn, "top-mine@example.com");
    let rival = fixtures::account(&mut conn, "top-rival@example.com");
    let old = published(&mut conn, mine.id, noon() - Duration::days(8));
    let setup = published(&mut conn, mine.id, noon());
    let rivals: Vec<SetupId> = (0..3).map(|_| published(&mut conn, rival.id, noon())).collect();
    let up = |conn: &mut DbConnection, voter: &Account, setup: SetupId| {
        votes::vote(conn, voter, setup, Vote::Up, noon(), &FeedChanges::default()).unwrap();
    };
    for (n, rival_setup) in [3, 2, 2].iter().zip(&rivals) {
        for voter in &voters[..*n] {
            up(&mut conn, voter, *rival_setup);
        }
    }
    let told = |conn: &mut DbConnection, user: UserId| -> Vec<(NotificationKind, Option<SetupId>)> {
        let inbox = notifications::inbox(conn, user, 20, 0).unwrap();
        inbox.notifications.into_iter().map(|n| (n.kind, n.setup_id)).collect()
    };
    assert_eq!(told(&mut conn, rival.id).len(), 3, "each rival entered the top 3 once");

    up(&mut conn, &voters[0], setup);
    for voter in &voters {
        up(&mut conn, voter, old);
    }
    assert!(told(&mut conn, mine.id).is_empty(), "1 point is 4th; a setup older than a week is not ranked");
    for voter in &voters[1..4] {
        up(&mut conn, voter, setup);
    }
    assert_eq!(
        told(&mut conn, mine.id),
        [(NotificationKind::TopWeek, Some(setup))],
        "4 points: in the top 3"
    );
    up(&mut conn, &voters[4], setup);
    assert_eq!(told(&mut conn, mine.id).len(), 1, "told once");
}

fn a_week_of_two_posts_has_no_top_three_to_reach(db: TestDb) {
    use setupiq_community::service::notifications::{self, NotificationKind};

    let mut conn = db.conn();
    let voter = member(&mut conn, "few-voter@example.com");
    let mine = fixtures::account(&mut conn, "few-mine@example.com");
    let other = fixtures::account(&mut conn, "few-other@example.com");
    let setup = published(&mut conn, mine.id, noon());
    published(&mut conn, other.id, noon());
    votes::vote(&mut conn, &voter, setup, Vote::Up, noon(), &FeedChanges::default()).unwrap();
    let kinds: Vec<NotificationKind> = notifications::inbox(&mut conn, mine.id, 20, 0)
        .unwrap()
        .notifications
        .into_iter()
        .map(|n| n.kind)
        .collect();
    assert!(kinds.is_empty(), "first of two is not 'this week's top 3': {kinds:?}");
}

fn a_user_files_at_most_twenty_reports_a_day(db: TestDb) {
    let mut conn = db.conn();
    let uploaders: Vec<_> =
        (0..3).map(|i| fixtures::account(&mut conn, &format!("up{i}@example.com"))).collect();
    let me = member(&mut conn, "reporter@example.com");
    let setups: Vec<SetupId> =
        (0..21).map(|i| published(&mut conn, uploaders[i % 3].id, noon() - Duration::days(1))).collect();
    for setup in &setups[..20] {
        report_spam(&mut conn, &me, *setup).unwrap();
    }
    assert!(matches!(report_spam(&mut conn, &me, setups[20]), Err(CommunityError::DailyReportLimit { .. })));
    // Reports of comments count towards the same cap.
    let commenter = fixtures::verified_account(&mut conn, "commenter@example.com", noon());
    let written =
        setupiq_community::service::comments::Written { setup_id: setups[20], parent_id: None, body: "Hi" };
    let comment = setupiq_community::service::comments::comment(
        &mut conn,
        &commenter,
        written,
        noon(),
        None,
        &FeedChanges::default(),
    )
    .unwrap();
    assert!(matches!(
        reports::report_comment(&mut conn, &me, comment, NewReport::new(ReportReason::Spam, None), noon()),
        Err(CommunityError::DailyReportLimit { .. })
    ));
    reports::report(
        &mut conn,
        &me,
        setups[20],
        NewReport::new(ReportReason::Spam, None),
        noon() + Duration::days(1),
        &FeedChanges::default(),
    )
    .unwrap();
}

fn reports_from_fresh_accounts_reach_the_queue_but_do_not_hide_the_setup(db: TestDb) {
    let mut conn = db.conn();
    let owner = fixtures::account(&mut conn, "target@example.com");
    let setup = published(&mut conn, owner.id, noon());
    let file = |conn: &mut DbConnection, user: &Account| {
        reports::report(
            conn,
            user,
            setup,
            NewReport::new(ReportReason::Spam, None),
            noon(),
            &FeedChanges::default(),
        )
    };
    // Made and verified a minute ago, with an analysis (free with the signup bonus).
    let fresh: Vec<_> = (0..3)
        .map(|i| {
            let made = noon() - Duration::minutes(1);
            let account = fixtures::verified_account(&mut conn, &format!("fresh-{i}@example.com"), made);
            fixtures::analysis(&mut conn, account.id, false, made);
            account
        })
        .collect();
    // Verified an hour ago, with an analysis; verified long ago but never analysed.
    let new = fixtures::verified_account(&mut conn, "new@example.com", noon() - Duration::hours(1));
    fixtures::analysis(&mut conn, new.id, false, noon());
    let idle = fixtures::verified_account(&mut conn, "idle@example.com", noon() - Duration::days(3));
    for user in fresh.iter().chain([&new, &idle]) {
        assert!(!reports::weighs(&mut conn, user.id, noon()).unwrap());
        assert_eq!(file(&mut conn, user).unwrap(), reports::Reported { counted: true, hidden: false });
    }
    // Analysed but unverified: neither weighs nor reports at all.
    let unverified = fixtures::account(&mut conn, "unverified@example.com");
    fixtures::analysis(&mut conn, unverified.id, false, noon());
    assert!(!reports::weighs(&mut conn, unverified.id, noon()).unwrap());
    assert!(matches!(file(&mut conn, &unverified), Err(CommunityError::ReportNeedsVerifiedEmail)));
    let found = setups::find(&mut conn, setup).unwrap();
    assert_eq!((found.hidden, found.open_reports), (false, 0), "none of them weighs");
    assert!(reports::visible_to(&mut conn, None, setup).unwrap());
    let queue = moderation::queue(&mut conn).unwrap();
    assert_eq!(queue.len(), 1);
    assert_eq!(queue[0].reports.len(), 5, "every report filed reaches the admins");
    assert!(!queue[0].hidden);

    // Three established reporters hide it.
    let trusted: Vec<_> = (0..3)
        .map(|i| fixtures::established_reporter(&mut conn, &format!("trusted-{i}@example.com"), noon()))
        .collect();
    assert!(reports::weighs(&mut conn, trusted[0].id, noon()).unwrap());
    assert!(!file(&mut conn, &trusted[0]).unwrap().hidden);
    assert!(!file(&mut conn, &trusted[1]).unwrap().hidden);
    assert_eq!(file(&mut conn, &trusted[2]).unwrap(), reports::Reported { counted: true, hidden: true });
    assert!(!reports::visible_to(&mut conn, None, setup).unwrap());
    assert_eq!(setups::find(&mut conn, setup).unwrap().open_reports, 3);
    assert_eq!(moderation::queue(&mut conn).unwrap()[0].reports.len(), 8);
}

fn a_network_files_at_most_twenty_reports_a_day(db: TestDb) {
    let mut conn = db.conn();
    let owner = fixtures::account(&mut conn, "popular@example.com");
    let setup = published(&mut conn, owner.id, noon());
    let reporters: Vec<Account> =
        (0..23).map(|i| member(&mut conn, &format!("farm-{i}@example.com"))).collect();
    let file = |conn: &mut DbConnection, user: &Account, ip: &str, at: DateTime<Utc>| {
        let new = NewReport { reason: ReportReason::Spam, details: None, ip: Some(ip) };
        reports::report(conn, user, setup, new, at, &FeedChanges::default())
    };
    // One IPv6 /64, a different address for each account.
    for (i, user) in reporters[..20].iter().enumerate() {
        file(&mut conn, user, &format!("2001:db8:1:2::{:x}", i + 1), noon()).unwrap();
    }
    let refused = file(&mut conn, &reporters[20], "2001:db8:1:2:ffff::1", noon());
    assert!(
        matches!(refused, Err(CommunityError::DailyAddressReportLimit { retry_after: 43_200 })),
        "{refused:?}"
    );
    assert_eq!(
        CommunityError::DailyAddressReportLimit { retry_after: 1 }.to_string(),
        "Too many reports from your network today. Please try again tomorrow."
    );
    assert_eq!(moderation::queue(&mut conn).unwrap()[0].reports.len(), 20, "nothing recorded");
    file(&mut conn, &reporters[20], "198.51.100.4", noon()).unwrap();
    file(&mut conn, &reporters[21], "2001:db8:1:2::99", noon() + Duration::days(1)).unwrap();
}

fn only_the_owner_or_an_admin_deletes_and_the_post_photos_go_with_it(db: TestDb) {
    let mut conn = db.conn();
    let owner = fixtures::account(&mut conn, "del-owner@example.com");
    let voter = member(&mut conn, "del-voter@example.com");
    let analysis_id = fixtures::analysis(&mut conn, owner.id, false, noon());
    let photos = stored(2);
    let new = NewSetup {
        user_id: owner.id,
        analysis_id,
        text: &PostText::default(),
        images: &photos,
        before: None,
    };
    let setup = setups::publish(&mut conn, &new, noon()).unwrap();
    votes::vote(&mut conn, &voter, setup, Vote::Up, noon(), &FeedChanges::default()).unwrap();
    report_spam(&mut conn, &voter, setup).unwrap();

    assert!(matches!(
        setups::delete(&mut conn, voter.id, false, setup, &FeedChanges::default()),
        Err(CommunityError::NotOwner)
    ));
    let mut removed = setups::delete(&mut conn, owner.id, false, setup, &FeedChanges::default()).unwrap();
    removed.sort_by(|a, b| a.as_str().cmp(b.as_str()));
    let mut expected: Vec<MediaKey> =
        photos.iter().map(new_photo).flat_map(|p| [p.image.clone(), p.thumbnail.clone()]).collect();
    expected.sort_by(|a, b| a.as_str().cmp(b.as_str()));
    assert_eq!(removed, expected);
    assert!(matches!(setups::find(&mut conn, setup), Err(CommunityError::SetupNotFound)));

    // An admin may delete anyone's; the analysis's own photo is not the post's to remove.
    let other = published(&mut conn, owner.id, noon());
    assert!(setups::delete(&mut conn, voter.id, true, other, &FeedChanges::default()).unwrap().is_empty());
}

fn a_deleted_account_takes_its_votes_out_of_the_scores(db: TestDb) {
    let mut conn = db.conn();
    let owner = fixtures::account(&mut conn, "acct-owner@example.com");
    let stays = member(&mut conn, "acct-stays@example.com");
    let leaves = member(&mut conn, "acct-leaves@example.com");
    let first = published(&mut conn, owner.id, noon());
    let second = published(&mut conn, owner.id, noon());
    votes::vote(&mut conn, &leaves, first, Vote::Up, noon(), &FeedChanges::default()).unwrap();
    votes::vote(&mut conn, &leaves, second, Vote::Down, noon(), &FeedChanges::default()).unwrap();
    votes::vote(&mut conn, &stays, first, Vote::Up, noon(), &FeedChanges::default()).unwrap();

    // The gateway registers the same hook.
    let hooks = OwnedMedia(vec![setups::on_account_deleted]);
    accounts::delete_account_with(&mut conn, leaves.id, &hooks, noon()).unwrap();
    assert_score(&mut conn, first, 1);
    assert_score(&mut conn, second, 0);
    assert_eq!(setups::find(&mut conn, first).unwrap().upvotes, 1);

    // The uploader's account takes their setups with it.
    accounts::delete_account_with(&mut conn, owner.id, &hooks, noon()).unwrap();
    assert!(matches!(setups::find(&mut conn, first), Err(CommunityError::SetupNotFound)));
}

mod feed_tests {
    //! The feed (as its pages are sent), the leaderboard, My Posts and profiles on both
    //! databases.

    use std::sync::Arc;

    use chrono::Duration;
    use serde_json::Value;
    use setupiq_auth::service::sessions;
    use setupiq_auth::{Account, Session};
    use setupiq_community::service::feed::{self, Feed, FeedQuery, Period, Sort};
    use setupiq_community::service::reports::{self, NewReport, ReportReason};
    use setupiq_community::service::votes::{self, Vote};
    use setupiq_community::service::{leaderboard, my_posts, profiles};
    use setupiq_core::clock::ManualClock;
    use setupiq_core::feed_changes::FeedChanges;
    use setupiq_core::{SetupId, UserId};
    use setupiq_db::DbConnection;
    use setupiq_rigpage::service::config::{self as rigpage, Settings};
    use setupiq_test_utils::{TestDb, both_backends, both_backends_async, fixtures};

    use super::{member, noon, published, report_spam};

    fn query() -> FeedQuery {
        FeedQuery { period: Period::All, sort: Sort::Top, limit: 20, offset: 0 }
    }

    /// A feed that keeps nothing yet, over the test's database, at noon.
    fn new_feed(db: &TestDb) -> Feed {
        new_feed_with(db, FeedChanges::default())
    }

    fn new_feed_with(db: &TestDb, changes: FeedChanges) -> Feed {
        Feed::new(db.db().clone(), Arc::new(ManualClock::new(noon())), changes)
    }

    /// `account`'s session cookie, which the feed looks up itself.
    fn session_of(db: &TestDb, account: &Account) -> Session {
        Session::of_token(sessions::start(&mut db.conn(), account.id, None, noon()).unwrap().token)
    }

    /// The page `feed` sends `session`, as the client reads it.
    async fn sent(feed: &Feed, session: Session, query: FeedQuery) -> Value {
        serde_json::from_slice(&feed.page(session, query).await.unwrap()).unwrap()
    }

    /// A page as a visitor is sent it.
    async fn visitors(feed: &Feed, query: FeedQuery) -> Value {
        sent(feed, Session::visitor(), query).await
    }

    fn ids(page: &Value) -> Vec<SetupId> {
        page["setups"].as_array().unwrap().iter().map(|s| SetupId(s["id"].as_i64().unwrap())).collect()
    }

    fn total(page: &Value) -> i64 {
        page["pagination"]["total"].as_i64().unwrap()
    }

    fn item(page: &Value, id: SetupId) -> &Value {
        page["setups"].as_array().unwrap().iter().find(|s| s["id"] == id.0).unwrap()
    }

    /// `n` fresh members that upvote `setup`.
    fn upvote(conn: &mut DbConnection, setup: SetupId, n: usize, tag: &str) {
        for i in 0..n {
            let voter = member(conn, &format!("{tag}-{i}@example.com"));
            votes::vote(conn, &voter, setup, Vote::Up, noon(), &FeedChanges::default()).unwrap();
        }
    }

    both_backends!(
        the_leaderboard_sums_scores_per_user_in_the_period,
        my_posts_and_profiles_count_what_they_should,
    );

    both_backends_async!(
        a_signed_in_body_is_the_viewers_page_with_kept_items_reused,
        the_feed_ranks_by_score_then_the_newer_and_pages_with_a_total,
        the_feed_shows_an_email_only_to_its_owner_and_a_rigpage_only_when_live,
        reported_and_hidden_setups_leave_the_feed,
        a_kept_page_shows_each_viewer_their_votes_the_current_scores_and_not_what_they_reported,
        hot_puts_a_fresh_setup_above_an_old_high_score,
    );

    /// What a signed-in viewer is sent from a kept page (kept items reused as bytes, changed
    /// ones serialised again) is, item for item, what a feed that keeps nothing sends them
    /// now; only the order is the kept one.
    async fn a_signed_in_body_is_the_viewers_page_with_kept_items_reused(db: TestDb) {
        let (owner, voter, reader, older, newer, third) = {
            let mut conn = db.conn();
            let owner = fixtures::account(&mut conn, "body-owner@example.com");
            let voter = member(&mut conn, "body-voter@example.com");
            let reader = fixtures::account(&mut conn, "body-reader@example.com");
            let older = published(&mut conn, owner.id, noon() - Duration::hours(3));
            let newer = published(&mut conn, owner.id, noon() - Duration::hours(2));
            let third = published(&mut conn, voter.id, noon() - Duration::hours(1));
            (owner, voter, reader, older, newer, third)
        };
        let feed = new_feed(&db);
        let signed_in = [&owner, &voter, &reader].map(|account| (account.id, session_of(&db, account)));
        let first = sent(&feed, signed_in[2].1.clone(), query()).await;
        assert_eq!(ids(&first), [third, newer, older], "all at 0: the newer first");
        // After the page was kept: a vote, a changed score.
        {
            let mut conn = db.conn();
            votes::vote(&mut conn, &voter, older, Vote::Up, noon(), &FeedChanges::default()).unwrap();
            upvote(&mut conn, newer, 2, "body");
        }
        for (viewer, session) in signed_in {
            let page = sent(&feed, session.clone(), query()).await;
            let now = sent(&new_feed(&db), session, query()).await;
            assert_eq!(ids(&page), [third, newer, older], "the kept order");
            assert_eq!(ids(&now), [newer, older, third], "the current order");
            for id in [older, newer, third] {
                assert_eq!(item(&page, id), item(&now, id), "viewer {viewer}, setup {id}");
            }
            assert_eq!(
                (&page["pagination"], &page["reportedByYou"]),
                (&now["pagination"], &now["reportedByYou"])
            );
            assert_eq!(item(&page, newer)["score"], 2, "the current score, not the kept one");
            assert_eq!(
                item(&page, older)["userVote"].is_null(),
                viewer != voter.id,
                "only the voter's own vote"
            );
            let own = item(&page, older)["uploaderEmail"] == "body-owner@example.com";
            assert_eq!(own, viewer == owner.id, "an e-mail only on the viewer's own setups");
        }
        // A cookie whose session is gone is a visitor: everyone's page, no e-mail on it.
        let visitor = feed.page(Session::visitor(), query()).await.unwrap();
        let ended = feed.page(Session::of_token("no-such-session"), query()).await.unwrap();
        assert_eq!(ended, visitor);
        assert!(!String::from_utf8_lossy(&ended).contains("body-owner@example.com"));
    }

    async fn the_feed_ranks_by_score_then_the_newer_and_pages_with_a_total(db: TestDb) {
        let (old, a, b, c) = {
            let mut conn = db.conn();
            let owner = fixtures::account(&mut conn, "rank@example.com");
            let old = published(&mut conn, owner.id, noon() - Duration::days(10));
            let a = published(&mut conn, owner.id, noon() - Duration::hours(3));
            let b = published(&mut conn, owner.id, noon() - Duration::hours(2));
            let c = published(&mut conn, owner.id, noon() - Duration::hours(1));
            upvote(&mut conn, a, 2, "ra");
            upvote(&mut conn, old, 3, "rold");
            (old, a, b, c)
        };
        let all = visitors(&new_feed(&db), query()).await;
        assert_eq!(ids(&all), [old, a, c, b], "score, then the newer first");
        assert_eq!(total(&all), 4);
        let week = visitors(&new_feed(&db), FeedQuery { period: Period::Week, ..query() }).await;
        assert_eq!((ids(&week), total(&week)), (vec![a, c, b], 3));
        let newest = visitors(&new_feed(&db), FeedQuery { sort: Sort::New, ..query() }).await;
        assert_eq!(ids(&newest), [c, b, a, old]);
        let second = visitors(&new_feed(&db), FeedQuery { limit: 2, offset: 2, ..query() }).await;
        assert_eq!((ids(&second), total(&second)), (vec![c, b], 4));
        assert_eq!(second["pagination"]["hasMore"], false);
    }

    async fn a_kept_page_shows_each_viewer_their_votes_the_current_scores_and_not_what_they_reported(
        db: TestDb,
    ) {
        let (owner, viewer, reporter, older, newer) = {
            let mut conn = db.conn();
            let owner = fixtures::account(&mut conn, "kept-owner@example.com");
            let viewer = member(&mut conn, "kept-viewer@example.com");
            let reporter = member(&mut conn, "kept-reporter@example.com");
            let older = published(&mut conn, owner.id, noon() - Duration::hours(2));
            let newer = published(&mut conn, owner.id, noon() - Duration::hours(1));
            (owner, viewer, reporter, older, newer)
        };
        let changes = FeedChanges::default();
        let feed = new_feed_with(&db, changes.clone());
        let (as_owner, as_viewer, as_reporter) =
            (session_of(&db, &owner), session_of(&db, &viewer), session_of(&db, &reporter));
        assert_eq!(ids(&visitors(&feed, query()).await), [newer, older]);

        // Votes after the page was kept: each viewer sees their own vote and every current score.
        {
            let mut conn = db.conn();
            votes::vote(&mut conn, &viewer, older, Vote::Up, noon(), &FeedChanges::default()).unwrap();
            upvote(&mut conn, older, 2, "kept");
        }
        let seen = sent(&feed, as_viewer.clone(), query()).await;
        assert_eq!(ids(&seen), [newer, older], "the kept order");
        assert_eq!(
            (item(&seen, older)["score"].as_i64(), item(&seen, older)["userVote"].as_i64()),
            (Some(3), Some(1))
        );
        assert!(item(&seen, newer)["userVote"].is_null());
        assert!(
            ids(&seen).iter().all(|id| item(&seen, *id)["uploaderEmail"].is_null()),
            "never another user's e-mail"
        );
        let own = sent(&feed, as_owner, query()).await;
        assert!(ids(&own).iter().all(|id| item(&own, *id)["uploaderEmail"] == "kept-owner@example.com"));

        // A report takes the setup out of the reporter's feed at once, and only theirs.
        report_spam(&mut db.conn(), &reporter, older).unwrap();
        let reporters = sent(&feed, as_reporter, query()).await;
        assert_eq!(
            (ids(&reporters), total(&reporters), reporters["reportedByYou"].as_i64()),
            (vec![newer], 1, Some(1))
        );
        assert_eq!(ids(&sent(&feed, as_viewer.clone(), query()).await), [newer, older]);

        // A setup hidden by three reports leaves signed-in viewers' pages at once.
        {
            let mut conn = db.conn();
            for i in 0..3 {
                let other =
                    fixtures::established_reporter(&mut conn, &format!("kept-hide-{i}@example.com"), noon());
                reports::report(
                    &mut conn,
                    &other,
                    newer,
                    NewReport::new(ReportReason::Spam, None),
                    noon(),
                    &changes,
                )
                .unwrap();
            }
        }
        assert_eq!(ids(&sent(&feed, as_viewer, query()).await), [older]);

        // The hide was recorded as a change: everyone's page is built again, without it and
        // with the current scores.
        let rebuilt = visitors(&feed, query()).await;
        assert_eq!(
            (ids(&rebuilt), total(&rebuilt), item(&rebuilt, older)["score"].as_i64()),
            (vec![older], 1, Some(3))
        );
    }

    async fn the_feed_shows_an_email_only_to_its_owner_and_a_rigpage_only_when_live(db: TestDb) {
        let (owner, viewer, setup) = {
            let mut conn = db.conn();
            let owner = fixtures::account(&mut conn, "secret-owner@example.com");
            let viewer = member(&mut conn, "viewer@example.com");
            let setup = published(&mut conn, owner.id, noon());
            votes::vote(&mut conn, &viewer, setup, Vote::Down, noon(), &FeedChanges::default()).unwrap();
            (owner, viewer, setup)
        };
        let seen = sent(&new_feed(&db), session_of(&db, &viewer), query()).await;
        let card = item(&seen, setup);
        assert!(card["uploaderEmail"].is_null(), "never another user's e-mail");
        assert_eq!(card["userVote"], -1);
        assert_eq!(card["images"].as_array().unwrap().len(), 1);
        assert!(card["analysis"]["overallRating"].as_f64().unwrap() > 0.0);
        assert!(!card["analysis"]["improvementSuggestions"].as_array().unwrap().is_empty());
        assert!(item(&visitors(&new_feed(&db), query()).await, setup)["uploaderEmail"].is_null());
        let own = sent(&new_feed(&db), session_of(&db, &owner), query()).await;
        assert_eq!(item(&own, setup)["uploaderEmail"], "secret-owner@example.com");
        assert!(item(&own, setup)["userVote"].is_null());

        // The RigPage shows once it is live and shown on the community.
        let mut page = {
            let mut conn = db.conn();
            let setup_id = fixtures::analysis(&mut conn, owner.id, true, noon());
            let mut page =
                Settings { slug: Some("owner_rig".into()), setup_id: Some(setup_id), ..Settings::default() };
            page.show_on_community = true;
            rigpage::save(&mut conn, owner.id, &page, noon()).unwrap();
            page
        };
        assert!(item(&visitors(&new_feed(&db), query()).await, setup)["uploaderRigPageSlug"].is_null());
        page.enabled = true;
        rigpage::save(&mut db.conn(), owner.id, &page, noon()).unwrap();
        let live = visitors(&new_feed(&db), query()).await;
        assert_eq!(item(&live, setup)["uploaderRigPageSlug"], "owner_rig");
    }

    async fn reported_and_hidden_setups_leave_the_feed(db: TestDb) {
        let (a, b, c, setup, other) = {
            let mut conn = db.conn();
            let owner = fixtures::account(&mut conn, "hide-owner@example.com");
            let [a, b, c] = ["ha", "hb", "hc"]
                .map(|n| fixtures::established_reporter(&mut conn, &format!("{n}@example.com"), noon()));
            let setup = published(&mut conn, owner.id, noon());
            let other = published(&mut conn, owner.id, noon());
            (a, b, c, setup, other)
        };
        report_spam(&mut db.conn(), &a, setup).unwrap();
        let for_a = sent(&new_feed(&db), session_of(&db, &a), query()).await;
        assert_eq!((ids(&for_a), total(&for_a)), (vec![other], 1), "gone for its reporter at once");
        assert_eq!(for_a["reportedByYou"], 1, "the reporter's feed says why it is shorter");
        let for_b = sent(&new_feed(&db), session_of(&db, &b), query()).await;
        assert_eq!((total(&for_b), for_b["reportedByYou"].as_i64()), (2, Some(0)));
        report_spam(&mut db.conn(), &b, setup).unwrap();
        report_spam(&mut db.conn(), &c, setup).unwrap();
        let anyone = visitors(&new_feed(&db), query()).await;
        assert_eq!((ids(&anyone), total(&anyone)), (vec![other], 1), "three reports hide it from everyone");
    }

    async fn hot_puts_a_fresh_setup_above_an_old_high_score(db: TestDb) {
        let (old, fresh) = {
            let mut conn = db.conn();
            let owner = fixtures::account(&mut conn, "hot@example.com");
            let old = published(&mut conn, owner.id, noon() - Duration::hours(48));
            let fresh = published(&mut conn, owner.id, noon() - Duration::hours(1));
            upvote(&mut conn, old, 5, "hot");
            upvote(&mut conn, fresh, 1, "fresh");
            (old, fresh)
        };
        let hot = visitors(&new_feed(&db), FeedQuery { sort: Sort::Hot, ..query() }).await;
        assert_eq!((ids(&hot), total(&hot)), (vec![fresh, old], 2));
        assert_eq!(ids(&visitors(&new_feed(&db), query()).await), [old, fresh]);
        assert!(
            feed::hot_rank(5, (noon() - Duration::hours(48)).naive_utc(), noon())
                < feed::hot_rank(1, (noon() - Duration::hours(1)).naive_utc(), noon())
        );
    }

    fn the_leaderboard_sums_scores_per_user_in_the_period(db: TestDb) {
        let mut conn = db.conn();
        let first = fixtures::account(&mut conn, "lead1@example.com");
        let second = fixtures::account(&mut conn, "lead2@example.com");
        let a = published(&mut conn, first.id, noon());
        let b = published(&mut conn, first.id, noon());
        let c = published(&mut conn, second.id, noon());
        let old = published(&mut conn, second.id, noon() - Duration::days(40));
        upvote(&mut conn, a, 3, "la");
        upvote(&mut conn, b, 1, "lb");
        upvote(&mut conn, c, 2, "lc");
        upvote(&mut conn, old, 5, "lold");

        let month = leaderboard::ranking(&mut conn, Period::Month, 50, Some(second.id), noon()).unwrap();
        let rows: Vec<_> = month.iter().map(|l| (l.user_id, l.total_score, l.setup_count)).collect();
        assert_eq!(rows, [(first.id, 4, 2), (second.id, 2, 1)]);
        assert_eq!(month[0].top_setup_score, Some(3));
        assert!(month[0].top_setup_image_url.as_deref().is_some_and(|u| u.starts_with("/media/")));
        assert_eq!(month[0].email, None, "only the viewer's own entry carries an e-mail");
        assert_eq!(month[1].email.as_deref(), Some("lead2@example.com"));

        let all = leaderboard::ranking(&mut conn, Period::All, 50, None, noon()).unwrap();
        assert_eq!(
            all.iter().map(|l| (l.user_id, l.total_score)).collect::<Vec<_>>(),
            [(second.id, 7), (first.id, 4)]
        );
        assert_eq!(leaderboard::ranking(&mut conn, Period::All, 1, None, noon()).unwrap().len(), 1);
    }

    fn my_posts_and_profiles_count_what_they_should(db: TestDb) {
        let mut conn = db.conn();
        let me = fixtures::account(&mut conn, "mine@example.com");
        let a = published(&mut conn, me.id, noon() - Duration::hours(2));
        let b = published(&mut conn, me.id, noon() - Duration::hours(1));
        upvote(&mut conn, a, 2, "ma");
        upvote(&mut conn, b, 1, "mb");
        let (posts, summary) = my_posts::list(&mut conn, me.id).unwrap();
        assert_eq!(posts.iter().map(|p| p.id).collect::<Vec<_>>(), [b, a], "newest first");
        assert_eq!((summary.total_posts, summary.total_upvotes), (2, 3));
        let rating = summary.best_post_score.unwrap();
        assert_eq!(
            summary.average_score,
            Some((rating * 10.0).round() / 10.0),
            "both posts share the fixture's rating"
        );
        assert_eq!((posts[0].image_count, posts[0].thumbnail_url.is_some()), (1, true));

        let viewer = fixtures::account(&mut conn, "profile-viewer@example.com");
        let profile = profiles::find(&mut conn, Some(viewer.id), me.id).unwrap().unwrap();
        assert_eq!((profile.total_posts, profile.total_likes), (2, 3));
        assert_eq!(profile.recent_posts.iter().map(|p| p.id).collect::<Vec<_>>(), [b, a]);
        assert!(profile.recent_posts.iter().all(|p| p.uploader.email.is_none()));
        assert_eq!((profile.rigpage_enabled, profile.rigpage_slug), (false, None));
        assert!(profiles::find(&mut conn, None, UserId(999_999)).unwrap().is_none());
    }
}

mod flow_tests {
    //! The publish and edit flows with real photos through the pipeline, the safety
    //! classifier and a media store on disk.

    use std::sync::Arc;

    use chrono::Duration;
    use diesel::prelude::*;
    use setupiq_analysis::service::find_for_owner;
    use setupiq_community::CommunityError;
    use setupiq_community::service::publish::{self, Post};
    use setupiq_community::service::setups::{self, PostText};
    use setupiq_core::AnalysisId;
    use setupiq_core::UserId;
    use setupiq_core::clock::ManualClock;
    use setupiq_core::upload::UploadRejection;
    use setupiq_db::AppCtx;
    use setupiq_db::schema::analyses;
    use setupiq_test_utils::{TestDb, both_backends_async, fixtures};

    use super::noon;

    fn files(dir: &std::path::Path) -> usize {
        walk(dir)
    }

    fn walk(dir: &std::path::Path) -> usize {
        std::fs::read_dir(dir).map_or(0, |entries| {
            entries.flatten().map(|e| if e.path().is_dir() { walk(&e.path()) } else { 1 }).sum()
        })
    }

    struct World {
        _dir: tempfile::TempDir,
        media_dir: std::path::PathBuf,
        ctx: AppCtx,
        clock: Arc<ManualClock>,
    }

    fn world(db: &TestDb) -> World {
        let dir = tempfile::tempdir().unwrap();
        let clock = Arc::new(ManualClock::new(noon()));
        let ctx = fixtures::ctx(db.db(), clock.clone(), dir.path());
        World { media_dir: ctx.config.media_dir(), ctx, _dir: dir, clock }
    }

    fn post(images: Vec<String>) -> Post {
        Post {
            text: PostText { title: Some("Clean desk".into()), description: None },
            images,
            with_before_photo: false,
        }
    }

    both_backends_async!(
        photos_are_stored_only_for_a_post_that_is_saved,
        an_edit_keeps_adds_and_drops_photos_within_the_hour,
        a_rerated_post_shows_its_own_before_photo_which_outlives_the_earlier_analysis
    );

    /// `analysis`'s photo and thumbnail put in the media store (the fixture only names them);
    /// returns the photo's bytes.
    async fn store_photo_of(
        ctx: &AppCtx,
        db: &TestDb,
        user: UserId,
        analysis: AnalysisId,
        shade: u8,
    ) -> Vec<u8> {
        let saved = find_for_owner(&mut db.conn(), user, analysis).unwrap();
        let bytes = fixtures::jpeg_data_url(shade).into_bytes();
        ctx.media.put(saved.image.as_ref().unwrap(), bytes.clone()).await.unwrap();
        ctx.media.put(saved.thumbnail.as_ref().unwrap(), bytes.clone()).await.unwrap();
        bytes
    }

    fn before_post(images: Vec<String>) -> Post {
        Post { with_before_photo: true, ..post(images) }
    }

    async fn a_rerated_post_shows_its_own_before_photo_which_outlives_the_earlier_analysis(db: TestDb) {
        let w = world(&db);
        let ctx = &w.ctx;
        let (me, other) = {
            let mut conn = db.conn();
            (
                fixtures::account(&mut conn, "before@example.com"),
                fixtures::account(&mut conn, "before-other@example.com"),
            )
        };
        let earlier = fixtures::analysis(&mut db.conn(), me.id, true, noon());
        let earlier_bytes = store_photo_of(ctx, &db, me.id, earlier, 30).await;
        let later = fixtures::rerated_analysis(&mut db.conn(), me.id, earlier, true, noon());
        let later_photo = find_for_owner(&mut db.conn(), me.id, later).unwrap().image.unwrap();

        // Six photos with the before photo are one too many, refused before any is stored.
        let six = before_post(vec![fixtures::jpeg_data_url(1); 5]);
        assert!(matches!(publish::publish(ctx, me.id, later, six).await, Err(CommunityError::TooManyImages)));
        assert_eq!(files(&w.media_dir), 2, "only the earlier analysis's photo and thumbnail");

        let id = publish::publish(ctx, me.id, later, before_post(vec![])).await.unwrap();
        let setup = setups::find(&mut db.conn(), id).unwrap();
        let marks: Vec<bool> = setup.images.iter().map(|i| i.is_before).collect();
        assert_eq!(marks, [false, true], "the setup now first, the before photo second");
        assert_eq!(setup.images[0].image, later_photo);
        let before = &setup.images[1];
        assert!(before.owned, "the before photo is the post's own copy");
        let earlier_photo = find_for_owner(&mut db.conn(), me.id, earlier).unwrap().image.unwrap();
        assert_ne!(before.image, earlier_photo);
        assert_eq!(ctx.media.get(&before.image).await.unwrap(), Some(earlier_bytes.clone()));

        // Deleting the earlier analysis takes its photo, not the post's copy.
        setupiq_analysis::service::delete_analysis(ctx, me.id, earlier).await.unwrap();
        assert_eq!(ctx.media.get(&earlier_photo).await.unwrap(), None);
        let after = setups::find(&mut db.conn(), id).unwrap();
        assert_eq!(after.images, setup.images, "the post keeps both photos");
        assert_eq!(ctx.media.get(&before.image).await.unwrap(), Some(earlier_bytes));
        let thumbnail = before.thumbnail.as_ref().unwrap();
        assert!(ctx.media.get(thumbnail).await.unwrap().is_some());

        // An edit keeps the mark on the photo it keeps, wherever it goes.
        let reordered = post(vec![before.image.url(), later_photo.url()]);
        publish::edit(ctx, me.id, id, reordered).await.unwrap();
        let edited = setups::find(&mut db.conn(), id).unwrap();
        assert_eq!(edited.images.iter().map(|i| i.is_before).collect::<Vec<_>>(), [true, false]);

        // Someone else's analysis as the earlier one (the analysis rules never link one, the
        // post checks all the same): its photo is never shown.
        let theirs = fixtures::analysis(&mut db.conn(), other.id, true, noon());
        store_photo_of(ctx, &db, other.id, theirs, 90).await;
        let relinked = fixtures::analysis(&mut db.conn(), me.id, true, noon());
        diesel::update(analyses::table.find(relinked))
            .set(analyses::previous_analysis_id.eq(Some(theirs)))
            .execute(&mut db.conn())
            .unwrap();
        let files_before = files(&w.media_dir);
        let id = publish::publish(ctx, me.id, relinked, before_post(vec![])).await.unwrap();
        let setup = setups::find(&mut db.conn(), id).unwrap();
        assert_eq!(setup.images.len(), 1);
        assert!(!setup.images[0].is_before);
        assert_eq!(files(&w.media_dir), files_before, "nothing copied");

        // A described re-rating offers no before photo, and the earlier analysis gone leaves none.
        let first = fixtures::analysis(&mut db.conn(), me.id, true, noon());
        store_photo_of(ctx, &db, me.id, first, 120).await;
        let described = fixtures::rerated_analysis(&mut db.conn(), me.id, first, false, noon());
        let id = publish::publish(ctx, me.id, described, before_post(vec![fixtures::jpeg_data_url(140)]))
            .await
            .unwrap();
        assert!(setups::find(&mut db.conn(), id).unwrap().images.iter().all(|i| !i.is_before));
        let orphan = fixtures::rerated_analysis(&mut db.conn(), me.id, first, true, noon());
        setupiq_analysis::service::delete_analysis(ctx, me.id, first).await.unwrap();
        let id = publish::publish(ctx, me.id, orphan, before_post(vec![])).await.unwrap();
        assert!(setups::find(&mut db.conn(), id).unwrap().images.iter().all(|i| !i.is_before));
    }

    async fn photos_are_stored_only_for_a_post_that_is_saved(db: TestDb) {
        let w = world(&db);
        let ctx = &w.ctx;
        let (me, other) = {
            let mut conn = db.conn();
            (
                fixtures::account(&mut conn, "flow@example.com"),
                fixtures::account(&mut conn, "flow-other@example.com"),
            )
        };
        let mine = fixtures::analysis(&mut db.conn(), me.id, false, noon());
        // For the posts refused for their photos (`mine` is published by then).
        let unposted = fixtures::analysis(&mut db.conn(), me.id, false, noon());
        let theirs = fixtures::analysis(&mut db.conn(), other.id, false, noon());

        let id = publish::publish(
            ctx,
            me.id,
            mine,
            post(vec![fixtures::jpeg_data_url(10), fixtures::jpeg_data_url(200)]),
        )
        .await
        .unwrap();
        let setup = setups::find(&mut db.conn(), id).unwrap();
        assert_eq!((setup.images.len(), setup.text.title.as_deref()), (2, Some("Clean desk")));
        assert_eq!(files(&w.media_dir), 4, "two photos and their thumbnails");

        let refused = publish::publish(ctx, me.id, theirs, post(vec![fixtures::jpeg_data_url(50)])).await;
        assert!(matches!(refused, Err(CommunityError::AnalysisNotFound)), "{refused:?}");
        let broken = publish::publish(
            ctx,
            me.id,
            unposted,
            post(vec![fixtures::jpeg_data_url(60), "data:image/png;base64,AAAA".into()]),
        )
        .await;
        assert!(matches!(broken, Err(CommunityError::Image(_))), "{broken:?}");
        let huge = format!("data:image/jpeg;base64,{}", "A".repeat(14 * 1024 * 1024));
        assert!(matches!(
            publish::publish(ctx, me.id, unposted, post(vec![huge])).await,
            Err(CommunityError::Image(UploadRejection::TooManyBytes { .. }))
        ));
        // A photo whose header is fine and whose body is missing: decoding it would fail.
        // A bogus or foreign analysis is refused before anything is decoded.
        let undecodable = fixtures::data_url("image/png", &fixtures::png_header(640, 480));
        for analysis in [theirs, AnalysisId(987_654)] {
            let refused = publish::publish(ctx, me.id, analysis, post(vec![undecodable.clone()])).await;
            assert!(matches!(refused, Err(CommunityError::AnalysisNotFound)), "{refused:?}");
        }
        let bomb = fixtures::data_url("image/webp", &fixtures::webp_bomb(12_000, 12_000));
        let refused =
            publish::publish(ctx, me.id, unposted, post(vec![fixtures::jpeg_data_url(70), bomb])).await;
        assert!(
            matches!(
                refused,
                Err(CommunityError::Image(UploadRejection::TooManyPixels { width: 12_000, .. }))
            ),
            "{refused:?}"
        );
        assert_eq!(files(&w.media_dir), 4, "nothing kept from refused posts");
    }

    async fn an_edit_keeps_adds_and_drops_photos_within_the_hour(db: TestDb) {
        let w = world(&db);
        let ctx = &w.ctx;
        let (me, other) = {
            let mut conn = db.conn();
            (
                fixtures::account(&mut conn, "edit@example.com"),
                fixtures::account(&mut conn, "edit-other@example.com"),
            )
        };
        let analysis = fixtures::analysis(&mut db.conn(), me.id, false, noon());
        let id = publish::publish(
            ctx,
            me.id,
            analysis,
            post(vec![fixtures::jpeg_data_url(10), fixtures::jpeg_data_url(90)]),
        )
        .await
        .unwrap();
        let before = setups::find(&mut db.conn(), id).unwrap();
        let (first, second) = (before.images[0].image.url(), before.images[1].image.url());

        let theirs = publish::edit(ctx, other.id, id, post(vec![second.clone()])).await;
        assert!(matches!(theirs, Err(CommunityError::NotOwner)), "{theirs:?}");
        let foreign = publish::edit(ctx, me.id, id, post(vec!["/media/community/nope.jpg".into()])).await;
        assert!(matches!(foreign, Err(CommunityError::UnknownImage)), "{foreign:?}");
        assert!(matches!(
            publish::edit(ctx, me.id, id, post(vec![])).await,
            Err(CommunityError::ImagesRequired)
        ));

        w.clock.advance(Duration::minutes(59));
        let edited = Post {
            text: PostText { title: None, description: Some("Now with a lamp".into()) },
            images: vec![second.clone(), fixtures::jpeg_data_url(170)],
            with_before_photo: false,
        };
        publish::edit(ctx, me.id, id, edited).await.unwrap();
        let after = setups::find(&mut db.conn(), id).unwrap();
        assert_eq!(after.images.len(), 2);
        assert_eq!(after.images[0].image.url(), second, "kept and moved first");
        assert!(after.images.iter().all(|i| i.image.url() != first), "the dropped photo is gone");
        assert_eq!((after.text.title, after.text.description.as_deref()), (None, Some("Now with a lamp")));
        assert_eq!(files(&w.media_dir), 4, "the dropped photo and its thumbnail are removed");

        w.clock.advance(Duration::minutes(2));
        let late = publish::edit(ctx, me.id, id, post(vec![second])).await;
        assert!(matches!(late, Err(CommunityError::EditWindowClosed)), "{late:?}");
        assert!(late.unwrap_err().to_string().contains("1 hour"));
    }
}

mod comment_tests {
    //! Comments on both databases: threads, the writing rules, the limits, the edit window on
    //! the injected clock, who may delete, and what an account deletion leaves.

    use chrono::{DateTime, Duration, Utc};
    use setupiq_auth::Account;
    use setupiq_auth::service::accounts::{self, OwnedMedia};
    use setupiq_community::CommunityError;
    use setupiq_community::service::comments::{self, Comment, Written};
    use setupiq_community::service::export;
    use setupiq_community::service::reports::{self, NewReport, ReportReason};
    use setupiq_community::service::setups;
    use setupiq_core::config::WordFilter;
    use setupiq_core::feed_changes::FeedChanges;
    use setupiq_core::{CommentId, SetupId, UserId};
    use setupiq_db::DbConnection;
    use setupiq_test_utils::{TestDb, both_backends, fixtures};

    use super::{noon, published};

    both_backends!(
        threads_are_newest_first_with_replies_one_level_deep_oldest_first,
        a_comment_needs_a_verified_address_1_to_1000_characters_and_no_filtered_word,
        five_a_minute_and_sixty_a_day,
        only_the_author_edits_and_only_within_the_hour,
        the_author_the_owner_or_an_admin_deletes_and_replies_keep_deleted,
        comments_follow_what_the_commenter_may_see,
        a_hidden_posts_comments_take_no_edit_but_their_authors_may_delete_them,
        a_departing_account_takes_its_comments_and_its_export_holds_them,
        comments_and_replies_notify_others_once_and_never_their_author,
        a_comment_is_reported_once_per_member_into_the_queue_and_an_admin_decides,
        a_digest_is_claimed_once_and_a_failed_one_goes_in_the_next_round,
    );

    fn a_digest_is_claimed_once_and_a_failed_one_goes_in_the_next_round(db: TestDb) {
        use setupiq_community::service::digest;
        let mut conn = db.conn();
        let owner = fixtures::verified_account(&mut conn, "digest-claim-owner@example.com", noon());
        let other = fixtures::verified_account(&mut conn, "digest-claim-other@example.com", noon());
        let setup = published(&mut conn, owner.id, noon());
        digest::set(&mut conn, &owner, true, noon()).unwrap();
        digest::set(&mut conn, &owner, true, noon()).unwrap(); // twice: still one subscription
        write(&mut conn, &other, setup, None, "Nice", noon() + Duration::minutes(1)).unwrap();
        let day_later = noon() + Duration::hours(24);

        let claimed = digest::claim_due(&mut conn, day_later, 10).unwrap();
        assert_eq!(claimed.len(), 1);
        assert_eq!((claimed[0].notifications.len(), claimed[0].more), (1, 0));
        assert!(digest::claim_due(&mut conn, day_later, 10).unwrap().is_empty(), "claimed once");
        // The e-mail could not go: the same digest is due again.
        digest::release(&mut conn, &claimed[0]).unwrap();
        let again = digest::claim_due(&mut conn, day_later + Duration::minutes(10), 10).unwrap();
        assert_eq!(again.len(), 1);
        assert_eq!(again[0].notifications, claimed[0].notifications);

        // Switched off: nothing is due whatever happens.
        digest::set(&mut conn, &owner, false, day_later).unwrap();
        write(&mut conn, &other, setup, None, "Hello?", day_later + Duration::minutes(1)).unwrap();
        assert!(digest::claim_due(&mut conn, day_later + Duration::hours(48), 10).unwrap().is_empty());
        assert!(!digest::subscribed(&mut conn, owner.id).unwrap());
    }

    fn write(
        conn: &mut DbConnection,
        author: &setupiq_auth::Account,
        setup_id: SetupId,
        parent_id: Option<CommentId>,
        body: &str,
        at: DateTime<Utc>,
    ) -> Result<CommentId, CommunityError> {
        let written = Written { setup_id, parent_id, body };
        comments::comment(conn, author, written, at, None, &FeedChanges::default())
    }

    fn thread(conn: &mut DbConnection, setup_id: SetupId, viewer: Option<UserId>) -> Vec<Comment> {
        comments::list(conn, viewer, setup_id, 20, 0).unwrap().comments
    }

    fn threads_are_newest_first_with_replies_one_level_deep_oldest_first(db: TestDb) {
        let mut conn = db.conn();
        let owner = fixtures::verified_account(&mut conn, "thread-owner@example.com", noon());
        let a = fixtures::verified_account(&mut conn, "thread-a@example.com", noon());
        let b = fixtures::verified_account(&mut conn, "thread-b@example.com", noon());
        let setup = published(&mut conn, owner.id, noon());
        let first = write(&mut conn, &a, setup, None, "  What's that monitor arm?  ", noon()).unwrap();
        let second = write(&mut conn, &b, setup, None, "Clean desk!", noon() + Duration::minutes(1)).unwrap();
        let answer =
            write(&mut conn, &owner, setup, Some(first), "An Ergotron LX.", noon() + Duration::minutes(2))
                .unwrap();
        // A reply to a reply joins the thread: one level deep.
        let thanks =
            write(&mut conn, &a, setup, Some(answer), "Thanks!", noon() + Duration::minutes(3)).unwrap();

        let seen = thread(&mut conn, setup, Some(a.id));
        let ids: Vec<CommentId> = seen.iter().map(|c| c.id).collect();
        assert_eq!(ids, [second, first], "threads newest first");
        let replies: Vec<(CommentId, Option<CommentId>)> =
            seen[1].replies.iter().map(|r| (r.id, r.parent_id)).collect();
        assert_eq!(
            replies,
            [(answer, Some(first)), (thanks, Some(first))],
            "replies oldest first, under the thread"
        );
        assert_eq!(seen[1].body.as_deref(), Some("What's that monitor arm?"), "trimmed");
        assert_eq!(seen[1].author.as_ref().map(|x| x.username.as_str()), Some(a.username.as_str()));
        assert!(seen[1].mine && !seen[0].mine && seen[1].replies[1].mine && !seen[1].replies[0].mine);
        assert!(thread(&mut conn, setup, None).iter().all(|c| !c.mine), "a visitor wrote none");

        let page = comments::list(&mut conn, None, setup, 1, 1).unwrap();
        assert_eq!((page.total, page.comments.len(), page.comments[0].id), (2, 1, first), "paged by thread");
    }

    fn a_comment_needs_a_verified_address_1_to_1000_characters_and_no_filtered_word(db: TestDb) {
        let mut conn = db.conn();
        let owner = fixtures::verified_account(&mut conn, "rules-owner@example.com", noon());
        let unverified = fixtures::account(&mut conn, "rules-new@example.com");
        let member = fixtures::verified_account(&mut conn, "rules-member@example.com", noon());
        let setup = published(&mut conn, owner.id, noon());
        assert!(matches!(
            write(&mut conn, &unverified, setup, None, "Hello", noon()),
            Err(CommunityError::CommentNeedsVerifiedEmail)
        ));
        for body in ["", "   \n ", &"x".repeat(1001)] {
            assert!(matches!(
                write(&mut conn, &member, setup, None, body, noon()),
                Err(CommunityError::CommentLength)
            ));
        }
        write(&mut conn, &member, setup, None, &"é".repeat(1000), noon())
            .expect("1000 characters, not bytes");

        let filter = WordFilter::new(r"\b(badword|worse)\b").unwrap();
        let with_filter = |conn: &mut DbConnection, body: &str| {
            let written = Written { setup_id: setup, parent_id: None, body };
            comments::comment(conn, &member, written, noon(), Some(&filter), &FeedChanges::default())
        };
        assert!(matches!(
            with_filter(&mut conn, "What a BadWord setup"),
            Err(CommunityError::CommentFiltered)
        ));
        with_filter(&mut conn, "Badwordless and fine").expect("only whole words match this filter");
        assert_eq!(thread(&mut conn, setup, None).len(), 2, "nothing refused was saved");
    }

    fn five_a_minute_and_sixty_a_day(db: TestDb) {
        let mut conn = db.conn();
        let owner = fixtures::verified_account(&mut conn, "limit-owner@example.com", noon());
        let member = fixtures::verified_account(&mut conn, "limit-member@example.com", noon());
        let setup = published(&mut conn, owner.id, noon());
        let start = noon();
        for i in 0..5 {
            write(&mut conn, &member, setup, None, "Nice", start + Duration::seconds(i * 10)).unwrap();
        }
        let too_fast = write(&mut conn, &member, setup, None, "Nice", start + Duration::seconds(45));
        assert!(
            matches!(too_fast, Err(CommunityError::CommentsTooFast { retry_after: 15 })),
            "free when the first of the five is a minute old: {too_fast:?}"
        );
        write(&mut conn, &member, setup, None, "Nice", start + Duration::seconds(61)).unwrap();

        // Spread over the day, one every two minutes: the 61st is refused until midnight.
        for i in 6..60 {
            write(&mut conn, &member, setup, None, "Nice", start + Duration::minutes(2 * i)).unwrap();
        }
        let late = start + Duration::minutes(130);
        let refused = write(&mut conn, &member, setup, None, "Nice", late);
        let until_midnight =
            u64::try_from((Duration::hours(12) - Duration::minutes(130)).num_seconds()).unwrap();
        assert!(
            matches!(refused, Err(CommunityError::DailyCommentLimit { retry_after }) if retry_after == until_midnight),
            "{refused:?}"
        );
        write(&mut conn, &member, setup, None, "Morning", start + Duration::hours(12)).expect("a new day");
    }

    fn only_the_author_edits_and_only_within_the_hour(db: TestDb) {
        let mut conn = db.conn();
        let owner = fixtures::verified_account(&mut conn, "edit-owner@example.com", noon());
        let author = fixtures::verified_account(&mut conn, "edit-author@example.com", noon());
        let setup = published(&mut conn, owner.id, noon());
        let id = write(&mut conn, &author, setup, None, "Frist", noon()).unwrap();
        assert!(matches!(
            comments::edit(&mut conn, owner.id, id, "Mine now", noon(), None),
            Err(CommunityError::NotCommentAuthor)
        ));
        let within = noon() + Duration::minutes(59);
        comments::edit(&mut conn, author.id, id, "  First  ", within, None).unwrap();
        let seen = &thread(&mut conn, setup, None)[0];
        assert_eq!((seen.body.as_deref(), seen.edited_at), (Some("First"), Some(within)), "marked edited");
        assert!(matches!(
            comments::edit(&mut conn, author.id, id, "Later", noon() + Duration::minutes(61), None),
            Err(CommunityError::CommentEditWindowClosed)
        ));
        assert!(matches!(
            comments::edit(&mut conn, author.id, id, " ", within, None),
            Err(CommunityError::CommentLength)
        ));
        assert!(matches!(
            comments::edit(&mut conn, author.id, CommentId(999_999), "Gone", within, None),
            Err(CommunityError::CommentNotFound)
        ));
    }

    fn the_author_the_owner_or_an_admin_deletes_and_replies_keep_deleted(db: TestDb) {
        let mut conn = db.conn();
        let owner = fixtures::verified_account(&mut conn, "del-owner@example.com", noon());
        let author = fixtures::verified_account(&mut conn, "del-author@example.com", noon());
        let stranger = fixtures::verified_account(&mut conn, "del-stranger@example.com", noon());
        let setup = published(&mut conn, owner.id, noon());
        let changes = FeedChanges::default();
        let delete = |conn: &mut DbConnection, user: UserId, admin: bool, id: CommentId| {
            comments::delete(conn, user, admin, id, &changes)
        };
        let root = write(&mut conn, &author, setup, None, "Root", noon()).unwrap();
        let reply = write(&mut conn, &stranger, setup, Some(root), "Reply", noon()).unwrap();
        let other = write(&mut conn, &author, setup, None, "Other", noon()).unwrap();
        let spam = write(&mut conn, &stranger, setup, None, "Spam", noon()).unwrap();

        assert!(matches!(
            delete(&mut conn, stranger.id, false, root),
            Err(CommunityError::CannotDeleteComment)
        ));
        delete(&mut conn, author.id, false, root).unwrap();
        let seen = thread(&mut conn, setup, None);
        let kept = seen.iter().find(|c| c.id == root).expect("a thread with replies keeps its place");
        assert_eq!(
            (kept.author.as_ref(), kept.body.as_ref(), kept.replies.len()),
            (None, None, 1),
            "[deleted]"
        );
        assert!(matches!(delete(&mut conn, author.id, false, root), Err(CommunityError::CommentNotFound)));

        delete(&mut conn, owner.id, false, spam).expect("the setup's owner");
        delete(&mut conn, stranger.id, true, other).expect("an admin");
        // The last reply of a deleted thread takes the thread along.
        delete(&mut conn, stranger.id, false, reply).unwrap();
        assert!(thread(&mut conn, setup, None).is_empty());
        assert_eq!(changes.content(), 4, "every deletion changes the cards' counts");
    }

    fn comments_follow_what_the_commenter_may_see(db: TestDb) {
        let mut conn = db.conn();
        let owner = fixtures::verified_account(&mut conn, "see-owner@example.com", noon());
        let reporter = fixtures::verified_account(&mut conn, "see-reporter@example.com", noon());
        let setup = published(&mut conn, owner.id, noon());
        let elsewhere = published(&mut conn, owner.id, noon());
        let there = write(&mut conn, &owner, elsewhere, None, "Over there", noon()).unwrap();
        assert!(matches!(
            write(&mut conn, &reporter, setup, Some(there), "Reply", noon()),
            Err(CommunityError::CommentNotFound)
        ));
        assert!(matches!(
            write(&mut conn, &reporter, SetupId(999_999), None, "Hi", noon()),
            Err(CommunityError::SetupNotFound)
        ));
        let before = write(&mut conn, &reporter, setup, None, "Looks staged", noon()).unwrap();
        let report = NewReport::new(ReportReason::Spam, None);
        reports::report(&mut conn, &reporter, setup, report, noon(), &FeedChanges::default()).unwrap();
        assert!(matches!(
            write(&mut conn, &reporter, setup, None, "Hi", noon()),
            Err(CommunityError::SetupNotFound)
        ));
        assert!(matches!(
            comments::edit(&mut conn, reporter.id, before, "Looks real", noon(), None),
            Err(CommunityError::SetupNotFound)
        ));
        assert!(matches!(
            comments::list(&mut conn, Some(reporter.id), setup, 20, 0),
            Err(CommunityError::SetupNotFound)
        ));
        assert!(comments::list(&mut conn, None, setup, 20, 0).is_ok(), "others still read it");
    }

    /// A post hidden for review takes no new words: an edit is refused as a new comment is.
    /// Deleting is not an edit (DESIGN.md §5 lets the author delete): words may be taken back.
    fn a_hidden_posts_comments_take_no_edit_but_their_authors_may_delete_them(db: TestDb) {
        let mut conn = db.conn();
        let owner = fixtures::verified_account(&mut conn, "frozen-owner@example.com", noon());
        let author = fixtures::verified_account(&mut conn, "frozen-author@example.com", noon());
        let setup = published(&mut conn, owner.id, noon());
        let said = write(&mut conn, &author, setup, None, "Nice rig", noon()).unwrap();
        let other = write(&mut conn, &author, setup, None, "Still nice", noon()).unwrap();
        let answer = write(&mut conn, &owner, setup, Some(said), "Thanks", noon()).unwrap();
        for i in 0..3 {
            let reporter =
                fixtures::established_reporter(&mut conn, &format!("frozen-rep-{i}@example.com"), noon());
            let report = NewReport::new(ReportReason::Spam, None);
            reports::report(&mut conn, &reporter, setup, report, noon(), &FeedChanges::default()).unwrap();
        }
        assert!(setups::find(&mut conn, setup).unwrap().hidden);

        let later = noon() + Duration::minutes(5);
        assert!(matches!(
            comments::edit(&mut conn, author.id, said, "Buy followers at spam.example", later, None),
            Err(CommunityError::SetupNotFound)
        ));
        assert!(matches!(
            write(&mut conn, &author, setup, Some(said), "And more", later),
            Err(CommunityError::SetupNotFound)
        ));
        let seen = thread(&mut conn, setup, Some(owner.id));
        let kept = seen.iter().find(|c| c.id == said).unwrap();
        assert_eq!((kept.body.as_deref(), kept.edited_at), (Some("Nice rig"), None), "the words as written");

        // Its owner still sees the post, and may still edit their own words under it.
        comments::edit(&mut conn, owner.id, answer, "Thank you", later, None).unwrap();
        comments::delete(&mut conn, author.id, false, other, &FeedChanges::default()).unwrap();
        let ids: Vec<CommentId> = thread(&mut conn, setup, Some(owner.id)).iter().map(|c| c.id).collect();
        assert_eq!(ids, [said], "the author took theirs back");
    }

    fn a_departing_account_takes_its_comments_and_its_export_holds_them(db: TestDb) {
        let mut conn = db.conn();
        let owner = fixtures::verified_account(&mut conn, "gone-owner@example.com", noon());
        let leaving = fixtures::verified_account(&mut conn, "gone-leaving@example.com", noon());
        let setup = published(&mut conn, owner.id, noon());
        let answered = write(&mut conn, &leaving, setup, None, "Answered", noon()).unwrap();
        write(&mut conn, &owner, setup, Some(answered), "An answer", noon()).unwrap();
        write(&mut conn, &leaving, setup, None, "Alone", noon()).unwrap();

        let export = export::comments(&mut conn, leaving.id).unwrap();
        let text = export.data.to_string();
        assert!(text.contains("Answered") && text.contains("Alone") && !text.contains("An answer"), "{text}");

        let owned = OwnedMedia(vec![setups::on_account_deleted]);
        accounts::delete_account_with(&mut conn, leaving.id, &owned, noon()).unwrap();
        let seen = thread(&mut conn, setup, None);
        assert_eq!(seen.len(), 1, "the comment without replies went");
        assert_eq!((seen[0].id, seen[0].author.as_ref(), seen[0].body.as_ref()), (answered, None, None));
        assert_eq!(seen[0].replies[0].body.as_deref(), Some("An answer"), "replies keep their place");
    }

    fn comments_and_replies_notify_others_once_and_never_their_author(db: TestDb) {
        use setupiq_community::service::notifications::{self, NotificationKind, Read};

        let mut conn = db.conn();
        let owner = fixtures::verified_account(&mut conn, "bell-owner@example.com", noon());
        let asker = fixtures::verified_account(&mut conn, "bell-asker@example.com", noon());
        let third = fixtures::verified_account(&mut conn, "bell-third@example.com", noon());
        let setup = published(&mut conn, owner.id, noon());
        let kinds = |conn: &mut DbConnection, user: UserId| -> Vec<(NotificationKind, CommentId)> {
            let inbox = notifications::inbox(conn, user, 20, 0).unwrap();
            inbox.notifications.iter().map(|n| (n.kind, n.comment_id.unwrap())).collect()
        };

        let question = write(&mut conn, &asker, setup, None, "What arm is that?", noon()).unwrap();
        assert_eq!(kinds(&mut conn, owner.id), [(NotificationKind::Comment, question)]);
        let answer = write(&mut conn, &owner, setup, Some(question), "An Ergotron LX", noon()).unwrap();
        assert_eq!(kinds(&mut conn, asker.id), [(NotificationKind::Reply, answer)]);
        assert_eq!(kinds(&mut conn, owner.id).len(), 1, "nobody hears of their own reply");
        let me_too =
            write(&mut conn, &third, setup, Some(answer), "Me too", noon() + Duration::minutes(1)).unwrap();
        assert_eq!(
            kinds(&mut conn, asker.id)[0],
            (NotificationKind::Reply, me_too),
            "the thread's author, newest first"
        );
        assert_eq!(kinds(&mut conn, owner.id)[0], (NotificationKind::Comment, me_too), "and the owner, once");
        write(&mut conn, &owner, setup, None, "Thanks all", noon()).unwrap();
        assert!(kinds(&mut conn, third.id).is_empty(), "a new thread tells only the owner, who wrote it");

        let inbox = notifications::inbox(&mut conn, owner.id, 20, 0).unwrap();
        assert_eq!((inbox.total, inbox.unread), (2, 2));
        let first = &inbox.notifications[0];
        assert_eq!(
            (first.actor.as_deref(), first.excerpt.as_deref(), first.setup_id),
            (Some(third.display_name.as_str()), Some("Me too"), Some(setup))
        );

        // Reading: the member's own ids (another's are ignored), then all.
        let theirs = notifications::inbox(&mut conn, asker.id, 20, 0).unwrap().notifications[0].id;
        let marked =
            notifications::mark_read(&mut conn, owner.id, &Read::These(vec![first.id, theirs]), noon())
                .unwrap();
        assert_eq!(marked, 1);
        assert_eq!(notifications::inbox(&mut conn, asker.id, 20, 0).unwrap().unread, 2, "untouched");
        assert_eq!(notifications::mark_read(&mut conn, owner.id, &Read::All, noon()).unwrap(), 1);
        let read = notifications::inbox(&mut conn, owner.id, 20, 0).unwrap();
        assert!(read.unread == 0 && read.notifications.iter().all(|n| n.read));

        // A comment that goes takes its notifications along.
        comments::delete(&mut conn, third.id, false, me_too, &FeedChanges::default()).unwrap();
        assert_eq!(notifications::inbox(&mut conn, asker.id, 20, 0).unwrap().total, 1);
    }

    fn a_comment_is_reported_once_per_member_into_the_queue_and_an_admin_decides(db: TestDb) {
        use setupiq_community::service::moderation::{self, Decision};
        use setupiq_community::service::notifications::{self, NotificationKind};

        let mut conn = db.conn();
        let owner = fixtures::verified_account(&mut conn, "flag-owner@example.com", noon());
        let rude = fixtures::verified_account(&mut conn, "flag-rude@example.com", noon());
        let a = fixtures::verified_account(&mut conn, "flag-a@example.com", noon());
        let b = fixtures::verified_account(&mut conn, "flag-b@example.com", noon());
        let setup = published(&mut conn, owner.id, noon());
        let insult =
            write(&mut conn, &rude, setup, None, "Buy cheap followers at spam.example", noon()).unwrap();
        let answer = write(&mut conn, &owner, setup, Some(insult), "No thanks", noon()).unwrap();
        let fine = write(&mut conn, &rude, setup, None, "Nice lamp", noon()).unwrap();
        let file = |conn: &mut DbConnection, who: &Account, comment: CommentId, details: Option<&str>| {
            reports::report_comment(conn, who, comment, NewReport::new(ReportReason::Spam, details), noon())
        };

        assert!(file(&mut conn, &a, insult, Some("A link farm")).unwrap());
        assert!(!file(&mut conn, &a, insult, None).unwrap(), "a repeat counts nothing");
        assert!(file(&mut conn, &b, insult, None).unwrap());
        assert!(file(&mut conn, &a, fine, None).unwrap());
        assert!(matches!(file(&mut conn, &rude, fine, None), Err(CommunityError::OwnCommentReport)));
        assert!(matches!(
            file(&mut conn, &a, CommentId(999_999), None),
            Err(CommunityError::CommentNotFound)
        ));
        let listed: Vec<CommentId> = thread(&mut conn, setup, Some(a.id)).iter().map(|c| c.id).collect();
        assert_eq!(listed, [fine, insult], "a reported comment stays until an admin decides");

        let queue = moderation::comment_queue(&mut conn).unwrap();
        let summary: Vec<(CommentId, usize)> =
            queue.iter().map(|c| (c.comment_id, c.reports.len())).collect();
        assert_eq!(summary, [(insult, 2), (fine, 1)], "the most reported first");
        assert_eq!(
            (queue[0].author_username.as_str(), queue[0].body.as_str(), queue[0].setup_id),
            (rude.username.as_str(), "Buy cheap followers at spam.example", setup)
        );
        assert_eq!(queue[0].reports[0].details.as_deref(), Some("A link farm"));
        assert_eq!(queue[0].reports[0].reporter_username, a.username, "admins see who reported");
        assert!(moderation::queue(&mut conn).unwrap().is_empty(), "the setups' queue is not the comments'");

        let moderator = fixtures::account(&mut conn, "flag-mod@example.com");
        assert_eq!(
            moderation::review_comment(&mut conn, moderator.id, fine, Decision::Dismiss, noon()).unwrap(),
            1
        );
        assert_eq!(
            moderation::review_comment(&mut conn, moderator.id, insult, Decision::Remove, noon()).unwrap(),
            2
        );
        assert!(moderation::comment_queue(&mut conn).unwrap().is_empty(), "both decided");
        let seen = thread(&mut conn, setup, None);
        let removed = seen.iter().find(|c| c.id == insult).unwrap();
        assert_eq!(
            (removed.body.as_ref(), removed.author.as_ref()),
            (None, None),
            "[deleted]: it has a reply"
        );
        assert_eq!(removed.replies[0].id, answer, "the reply keeps its place");
        assert!(seen.iter().any(|c| c.id == fine && c.body.is_some()), "a dismissed report leaves it");
        assert!(
            !file(&mut conn, &a, fine, None).unwrap(),
            "dismissed: the same member cannot report it again"
        );
        assert!(matches!(file(&mut conn, &b, insult, None), Err(CommunityError::CommentNotFound)));

        // The bell: the author hears their comment went, each reporter what became of theirs.
        let told = |conn: &mut DbConnection,
                    user: UserId|
         -> Vec<(NotificationKind, Option<SetupId>, Option<String>)> {
            let inbox = notifications::inbox(conn, user, 20, 0).unwrap();
            inbox.notifications.into_iter().map(|n| (n.kind, n.setup_id, n.excerpt)).collect()
        };
        let spam = Some("Buy cheap followers at spam.example".to_owned());
        assert!(told(&mut conn, rude.id).contains(&(
            NotificationKind::CommentRemoved,
            Some(setup),
            spam.clone()
        )));
        assert_eq!(told(&mut conn, b.id), [(NotificationKind::ReportUpheld, Some(setup), spam.clone())]);
        assert_eq!(
            told(&mut conn, a.id),
            [
                (NotificationKind::ReportUpheld, Some(setup), spam),
                (NotificationKind::ReportDismissed, Some(setup), Some("Nice lamp".to_owned())),
            ]
        );
        assert!(told(&mut conn, moderator.id).is_empty());

        let export = export::comment_reports(&mut conn, a.id).unwrap().data.to_string();
        assert!(
            export.contains("A link farm") && export.contains("upheld") && export.contains("dismissed"),
            "{export}"
        );
    }
}
