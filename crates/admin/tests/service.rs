//! The admin's rules on both databases: analytics (revenue in cents, unique users and
//! sessions, bots kept but not counted, periods, the roll-up agreeing with the clicks),
//! link health (the two-failure rule, warnings, accepted redirects, bot checks changing
//! nothing, one run at a time), moderation with its log, and accounts (one at a time and the
//! table's bulk actions, deletion through the member's own path).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration as StdDuration;

use chrono::{DateTime, Duration, TimeZone, Utc};
use diesel::prelude::*;
use setupiq_admin::AdminError;
use setupiq_admin::service::analytics::{self, CategorySort, Period, estimated_cents};
use setupiq_admin::service::checker::{CheckResult, Hop, Verdict};
use setupiq_admin::service::links::{self, LinkAction, LinkFilter, RunStatus};
use setupiq_admin::service::log::{self, Action, Actor};
use setupiq_admin::service::{moderation, users};
use setupiq_affiliate::service::{self as affiliate, NewClick};
use setupiq_community::service::moderation::Decision;
use setupiq_community::service::notifications::{self, NotificationKind};
use setupiq_community::service::reports::{self, NewReport, ReportReason};
use setupiq_community::service::setups::{self, NewSetup, PostText};
use setupiq_core::feed_changes::FeedChanges;
use setupiq_core::{ProductId, SetupId, UserId};
use setupiq_db::DbConnection;
use setupiq_db::schema::products;
use setupiq_test_utils::{TestDb, both_backends, fixtures};
use users::{BulkAction, BulkChange, BulkOutcome, Skip};

fn noon() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 7, 1, 12, 0, 0).single().unwrap()
}

/// (id, price in cents, commission in basis points) of the first products of the catalogue.
fn products(conn: &mut DbConnection, n: i64) -> Vec<(ProductId, i64, i32, String)> {
    products::table
        .order(products::id)
        .limit(n)
        .select((products::id, products::price_cents, products::commission_bp, products::product_category))
        .load(conn)
        .unwrap()
}

fn click(
    conn: &mut DbConnection,
    product_id: ProductId,
    session: &str,
    user_id: Option<UserId>,
    is_bot: bool,
    at: DateTime<Utc>,
) {
    let click = NewClick {
        product_id,
        session_id: session,
        suggestion_context: None,
        analysis_id: None,
        user_id,
        is_bot,
    };
    affiliate::track_click(conn, &click, at).unwrap();
}

both_backends!(
    revenue_uniques_and_bots_are_counted_as_specified,
    periods_top_products_categories_and_the_daily_series,
    a_link_is_switched_off_only_after_two_failed_runs_and_bot_checks_change_nothing,
    warnings_accepted_redirects_and_an_admins_fixes_are_logged,
    one_run_at_a_time_and_a_lost_run_does_not_block_the_next,
    a_run_that_could_not_reach_the_network_changes_nothing,
    links_the_checker_could_not_reach_are_never_failures_and_admins_switch_many_back_on,
    dismissing_shows_a_setup_again_and_removing_deletes_it_both_logged,
    accounts_are_found_and_changed_and_no_admin_removes_their_own_role,
);

setupiq_test_utils::both_backends_async!(
    bulk_changes_change_each_account_once_logged_and_skip_the_rest_with_reasons,
    bulk_deletion_is_the_members_own_and_spares_oneself_admins_and_blocked_accounts,
);

#[test]
fn revenue_is_rounded_half_up_in_whole_cents() {
    // 3 clicks x $19.99 x 4 % commission x 5 % conversion = 11.994 cents.
    assert_eq!(estimated_cents(3, 1999, 400, 500), 12);
    // 1 x $0.25 x 10 % x 10 % = 0.25 cents, 2 x = 0.5 -> 1.
    assert_eq!(estimated_cents(1, 25, 1000, 1000), 0);
    assert_eq!(estimated_cents(2, 25, 1000, 1000), 1);
    assert_eq!(estimated_cents(0, 99_999, 1000, 500), 0);
    // No overflow on absurd inputs.
    assert_eq!(estimated_cents(i64::MAX, i64::MAX, i32::MAX, u32::MAX), i64::MAX);
}

fn revenue_uniques_and_bots_are_counted_as_specified(db: TestDb) {
    let mut conn = db.conn();
    let alice = fixtures::account(&mut conn, "alice@example.com");
    let bob = fixtures::account(&mut conn, "bob@example.com");
    let catalogue = products(&mut conn, 2);
    let (first, second) = (&catalogue[0], &catalogue[1]);
    click(&mut conn, first.0, "s-1", Some(alice.id), false, noon());
    click(&mut conn, first.0, "s-1", Some(alice.id), false, noon());
    click(&mut conn, first.0, "s-2", Some(bob.id), false, noon());
    click(&mut conn, second.0, "s-3", None, false, noon());
    // A crawler's clicks are kept, never counted.
    click(&mut conn, first.0, "s-bot", None, true, noon());
    click(&mut conn, second.0, "s-bot", None, true, noon());

    let summary = analytics::summary(&mut conn, Period::All, noon(), 500).unwrap();
    assert_eq!(summary.total_clicks, 4);
    assert_eq!((summary.unique_users, summary.unique_sessions), (2, 3));
    let expected = estimated_cents(3, first.1, first.2, 500) + estimated_cents(1, second.1, second.2, 500);
    assert_eq!(summary.estimated_revenue_cents, expected);
    let stored: i64 = setupiq_db::schema::affiliate_clicks::table.count().get_result(&mut *conn).unwrap();
    assert_eq!(stored, 6, "bots' clicks are kept");
    // Another conversion rate scales the estimate.
    let doubled = analytics::summary(&mut conn, Period::All, noon(), 1000).unwrap();
    assert_eq!(
        doubled.estimated_revenue_cents,
        estimated_cents(3, first.1, first.2, 1000) + estimated_cents(1, second.1, second.2, 1000)
    );
}

fn periods_top_products_categories_and_the_daily_series(db: TestDb) {
    let mut conn = db.conn();
    let catalogue = products(&mut conn, 4);
    let old = noon() - Duration::days(40);
    click(&mut conn, catalogue[0].0, "old", None, false, old);
    for session in ["a", "b", "c"] {
        click(&mut conn, catalogue[1].0, session, None, false, noon());
    }
    click(&mut conn, catalogue[2].0, "a", None, false, noon() - Duration::days(2));

    let week = analytics::summary(&mut conn, Period::Days7, noon(), 500).unwrap();
    assert_eq!((week.total_clicks, week.unique_sessions), (4, 3));
    assert_eq!(analytics::summary(&mut conn, Period::Days90, noon(), 500).unwrap().total_clicks, 5);

    let top = analytics::top_products(&mut conn, Period::All, 2, noon(), 500).unwrap();
    assert_eq!((top[0].id, top[0].clicks), (catalogue[1].0, 3), "most clicked first");
    assert_eq!(top[1].clicks, 1);
    assert_eq!(top.len(), 2);
    assert!(
        analytics::top_products(&mut conn, Period::Days7, 5, noon(), 500)
            .unwrap()
            .iter()
            .all(|p| p.id != catalogue[0].0),
        "the old click is outside the week"
    );

    let categories =
        analytics::categories(&mut conn, Period::All, CategorySort::ClickCount, noon(), 500).unwrap();
    let total: i64 = categories.iter().map(|c| c.clicks).sum();
    assert_eq!(total, 5);
    assert!(categories.windows(2).all(|w| w[0].clicks >= w[1].clicks), "most clicks first");
    let by_name = analytics::categories(&mut conn, Period::All, CategorySort::Category, noon(), 500).unwrap();
    assert!(by_name.windows(2).all(|w| w[0].category <= w[1].category), "A to Z");

    let days = analytics::daily_clicks(&mut conn, Period::Days7, noon()).unwrap();
    assert_eq!(days.len(), 7, "every day of the week, zeros included");
    assert_eq!(days.last().unwrap(), &(noon().date_naive(), 3));
    assert_eq!(days[4], ((noon() - Duration::days(2)).date_naive(), 1));
    let all: Vec<_> = analytics::daily_clicks(&mut conn, Period::All, noon()).unwrap();
    assert_eq!(all.first().unwrap().0, old.date_naive(), "all time starts at the first click");
    assert_eq!(all.iter().map(|d| d.1).sum::<i64>(), 5);
}

fn result(
    product_id: ProductId,
    url: &str,
    verdict: Verdict,
    status: Option<u16>,
    final_url: Option<&str>,
) -> CheckResult<ProductId> {
    CheckResult {
        id: product_id,
        url: url.to_owned(),
        final_url: final_url.map(str::to_owned),
        status,
        chain: vec![Hop { url: url.to_owned(), status }],
        elapsed: StdDuration::from_millis(12),
        verdict,
    }
}

fn admin(conn: &mut DbConnection, email: &str) -> UserId {
    let account = fixtures::account(conn, email);
    setupiq_auth::service::accounts::grant_admin(conn, email, noon()).unwrap();
    account.id
}

fn product_state(conn: &mut DbConnection, id: ProductId) -> (bool, i32, Option<String>) {
    products::table
        .find(id)
        .select((products::is_active, products::consecutive_failures, products::link_status))
        .first(conn)
        .unwrap()
}

/// One run over the first product only, with `verdict`.
fn run_once(
    conn: &mut DbConnection,
    actor: Actor<'_>,
    product: ProductId,
    verdict: Verdict,
    status: Option<u16>,
) -> links::RunSummary {
    let opened = links::open_run(conn, actor, LinkFilter::default(), noon()).unwrap();
    let url = opened.links.iter().find(|l| l.id == product).unwrap().url.clone();
    links::finish_run(conn, opened.run_id, &[result(product, &url, verdict, status, Some(&url))], noon())
        .unwrap()
}

fn a_link_is_switched_off_only_after_two_failed_runs_and_bot_checks_change_nothing(db: TestDb) {
    let mut conn = db.conn();
    let id = admin(&mut conn, "links@example.com");
    let actor = Actor { id, username: "links" };
    let product = products(&mut conn, 1)[0].0;

    let first = run_once(&mut conn, actor, product, Verdict::Dead, Some(404));
    assert_eq!((first.counts.total_checked, first.counts.dead, first.dead_links.len()), (1, 1, 1));
    assert_eq!(product_state(&mut conn, product), (true, 1, Some("dead".into())), "one failed run: still on");
    // A bot-check page says nothing about the link: the count of failures stands.
    let unknown = run_once(&mut conn, actor, product, Verdict::BotCheck, Some(200));
    assert_eq!(unknown.counts.unknown, 1);
    assert_eq!(product_state(&mut conn, product), (true, 1, Some("unknown".into())), "seen, not judged");
    run_once(&mut conn, actor, product, Verdict::Timeout, None);
    assert_eq!(
        product_state(&mut conn, product),
        (false, 2, Some("dead".into())),
        "second failure in a row: off"
    );

    // Healthy again: failures reset; switching back on is the admin's call.
    run_once(&mut conn, actor, product, Verdict::Healthy, Some(200));
    assert_eq!(product_state(&mut conn, product), (false, 0, Some("healthy".into())));
    links::act(&mut conn, actor, product, &LinkAction::SetActive(true), noon()).unwrap();
    assert!(product_state(&mut conn, product).0);

    let runs = links::report(&mut conn, noon(), 500).unwrap().recent_runs;
    assert_eq!(runs.len(), 4);
    assert!(runs.iter().all(|r| r.status == RunStatus::Completed && r.finished_at.is_some()));
}

fn all_product_states(conn: &mut DbConnection) -> Vec<(bool, i32, Option<String>)> {
    products::table
        .order(products::id)
        .select((products::is_active, products::consecutive_failures, products::link_status))
        .load(conn)
        .unwrap()
}

/// A server without internet: every name fails to resolve. Two runs in a row change no product
/// (before, they switched off the whole catalogue), and each is recorded as failed with why.
fn a_run_that_could_not_reach_the_network_changes_nothing(db: TestDb) {
    let mut conn = db.conn();
    let id = admin(&mut conn, "offline@example.com");
    let actor = Actor { id, username: "offline" };
    let before = all_product_states(&mut conn);
    for _ in 0..2 {
        let opened = links::open_run(&mut conn, actor, LinkFilter::default(), noon()).unwrap();
        let total = opened.links.len();
        let results: Vec<CheckResult<ProductId>> = opened
            .links
            .iter()
            .map(|l| {
                let cause = "DNS lookup of www.amazon.com failed: failed to lookup address information";
                result(l.id, &l.url, Verdict::Unreachable(cause.into()), None, None)
            })
            .collect();
        let refused = links::finish_run(&mut conn, opened.run_id, &results, noon());
        match refused {
            Err(AdminError::ChecksUnreachable { unreachable, total: of, .. }) => {
                assert_eq!((unreachable, of), (total, total));
            }
            other => panic!("expected the run to fail as unreachable: {other:?}"),
        }
    }
    assert_eq!(all_product_states(&mut conn), before, "no product changed");
    let runs = links::report(&mut conn, noon(), 500).unwrap().recent_runs;
    assert_eq!(runs.len(), 2);
    for run in &runs {
        assert_eq!(run.status, RunStatus::Failed);
        assert_eq!(run.counts.unreachable, run.counts.total_checked);
        let reason = run.failure_reason.as_deref().unwrap();
        assert!(reason.starts_with("The link check could not reach the network:"), "{reason}");
        assert!(reason.contains("DNS lookup of www.amazon.com failed"), "{reason}");
    }
}

/// One link out of reach in an otherwise good run is "could not check": its failures stand and
/// it stays on. An admin switches many products back on at once, their failures forgotten.
fn links_the_checker_could_not_reach_are_never_failures_and_admins_switch_many_back_on(db: TestDb) {
    let mut conn = db.conn();
    let id = admin(&mut conn, "reach@example.com");
    let actor = Actor { id, username: "reach" };
    let [(a, ..), (b, ..), (c, ..)] = <[_; 3]>::try_from(products(&mut conn, 3)).unwrap();
    run_once(&mut conn, actor, a, Verdict::Dead, Some(404));
    let unreachable = Verdict::Unreachable("tcp connect error: Connection refused (os error 111)".into());
    // Out of reach in three runs of the whole catalogue: never a second failure.
    for _ in 0..3 {
        let opened = links::open_run(&mut conn, actor, LinkFilter::default(), noon()).unwrap();
        let results: Vec<CheckResult<ProductId>> = opened
            .links
            .iter()
            .map(|l| {
                let verdict = if l.id == a { unreachable.clone() } else { Verdict::Healthy };
                result(l.id, &l.url, verdict, None, Some(&l.url))
            })
            .collect();
        let summary = links::finish_run(&mut conn, opened.run_id, &results, noon()).unwrap();
        assert_eq!((summary.counts.unreachable, summary.counts.dead, summary.dead_links.len()), (1, 0, 0));
    }
    assert_eq!(product_state(&mut conn, a), (true, 1, Some("unknown".into())), "still one failure, still on");

    // Two dead runs switch b and c off; one call switches both back on (a is on already).
    for product in [b, c] {
        run_once(&mut conn, actor, product, Verdict::Dead, Some(404));
        run_once(&mut conn, actor, product, Verdict::Dead, Some(410));
        assert_eq!(product_state(&mut conn, product), (false, 2, Some("dead".into())));
    }
    assert_eq!(
        links::set_active_many(&mut conn, actor, &[a, b, c, ProductId(999_999)], true, noon()).unwrap(),
        2
    );
    assert_eq!(product_state(&mut conn, b), (true, 0, Some("dead".into())));
    assert_eq!(product_state(&mut conn, c), (true, 0, Some("dead".into())));
    let (logged, _) = setupiq_admin::service::log::page(&mut conn, 50, 0).unwrap();
    let activations = logged.iter().filter(|e| e.action == Action::ActivateProduct).count();
    assert_eq!(activations, 2);
    // One failure after that is one, not three.
    run_once(&mut conn, actor, b, Verdict::Dead, Some(404));
    assert_eq!(product_state(&mut conn, b), (true, 1, Some("dead".into())));

    // Many switched off at once: only those that were on change, each logged.
    assert_eq!(
        links::set_active_many(&mut conn, actor, &[a, b, ProductId(999_999)], false, noon()).unwrap(),
        2
    );
    assert_eq!(links::set_active_many(&mut conn, actor, &[a, b], false, noon()).unwrap(), 0, "already off");
    assert!(!product_state(&mut conn, a).0, "switched off");
    assert_eq!(product_state(&mut conn, b), (false, 1, Some("dead".into())), "its failures are kept");
    let (logged, _) = setupiq_admin::service::log::page(&mut conn, 50, 0).unwrap();
    assert_eq!(logged.iter().filter(|e| e.action == Action::DeactivateProduct).count(), 2);
}

fn warnings_accepted_redirects_and_an_admins_fixes_are_logged(db: TestDb) {
    let mut conn = db.conn();
    let id = admin(&mut conn, "warn@example.com");
    let actor = Actor { id, username: "warn" };
    let catalogue = products(&mut conn, 2);
    let product = catalogue[0].0;
    // Clicks in the last 30 days put revenue at risk.
    for session in ["x", "y"] {
        click(&mut conn, product, session, None, false, noon() - Duration::days(3));
    }
    let opened = links::open_run(&mut conn, actor, LinkFilter::default(), noon()).unwrap();
    let home = "https://www.amazon.com/";
    let url = opened.links.iter().find(|l| l.id == product).unwrap().url.clone();
    let found = links::finish_run(
        &mut conn,
        opened.run_id,
        &[result(product, &url, Verdict::HomePageRedirect, Some(200), Some(home))],
        noon(),
    )
    .unwrap();
    assert_eq!((found.counts.warnings, found.dead_links.len()), (1, 0));
    assert_eq!(
        product_state(&mut conn, product),
        (true, 0, Some("warning".into())),
        "a warning is not a failure"
    );
    let report = links::report(&mut conn, noon(), 500).unwrap();
    let problem = report.problems.iter().find(|p| p.product_id == product).unwrap();
    assert_eq!(problem.revenue_at_risk_cents, estimated_cents(2, catalogue[0].1, catalogue[0].2, 500));
    assert_eq!(problem.final_url.as_deref(), Some(home));
    assert_eq!(problem.chain.len(), 1);
    assert_eq!(report.never_verified, report.total - 1);

    // Accepted: healthy now, and the same redirect next time is healthy too.
    links::act(&mut conn, actor, product, &LinkAction::ExpectRedirect, noon()).unwrap();
    assert_eq!(product_state(&mut conn, product).2.as_deref(), Some("healthy"));
    let next = links::open_run(&mut conn, actor, LinkFilter::default(), noon()).unwrap();
    let again = links::finish_run(
        &mut conn,
        next.run_id,
        &[result(product, &url, Verdict::HomePageRedirect, Some(200), Some(home))],
        noon(),
    )
    .unwrap();
    assert_eq!(again.counts.healthy, 1);

    // A new link starts over.
    links::act(
        &mut conn,
        actor,
        product,
        &LinkAction::Replace("https://www.amazon.com/dp/B0NEW?tag=setupiq-20".into()),
        noon(),
    )
    .unwrap();
    let (link, status): (String, Option<String>) = products::table
        .find(product)
        .select((products::link, products::link_status))
        .first(&mut *conn)
        .unwrap();
    assert_eq!((link.as_str(), status), ("https://www.amazon.com/dp/B0NEW?tag=setupiq-20", None));
    assert!(matches!(
        links::act(&mut conn, actor, ProductId(999_999), &LinkAction::SetActive(false), noon()),
        Err(AdminError::ProductNotFound)
    ));

    let (entries, total) = log::page(&mut conn, 50, 0).unwrap();
    let actions: Vec<&str> = entries.iter().map(|e| e.action.as_str()).collect();
    assert_eq!(actions, ["replace_link", "verify_links", "expect_redirect", "verify_links"]);
    assert_eq!(total, 4);
    assert!(entries.iter().all(|e| e.admin_id == Some(id) && e.admin_name == "warn"));
}

fn one_run_at_a_time_and_a_lost_run_does_not_block_the_next(db: TestDb) {
    let mut conn = db.conn();
    let id = admin(&mut conn, "runs@example.com");
    let actor = Actor { id, username: "runs" };
    let opened = links::open_run(&mut conn, actor, LinkFilter::default(), noon()).unwrap();
    let catalogue = opened.links.len();
    assert!(catalogue >= 60, "the whole catalogue: {catalogue}");
    assert!(matches!(
        links::open_run(&mut conn, actor, LinkFilter::default(), noon()),
        Err(AdminError::RunInProgress)
    ));
    // Its process went away: half an hour later the next run closes it as failed.
    let later = noon() + links::STALE_RUN + Duration::seconds(1);
    let next = links::open_run(&mut conn, actor, LinkFilter::default(), later).unwrap();
    links::fail_run(&mut conn, next.run_id, "The results could not be saved.", later).unwrap();
    let runs = links::report(&mut conn, later, 500).unwrap().recent_runs;
    assert_eq!(runs.iter().map(|r| r.status.as_str()).collect::<Vec<_>>(), ["failed", "failed"]);
    assert_eq!(
        runs.iter().map(|r| r.failure_reason.as_deref()).collect::<Vec<_>>(),
        [
            Some("The results could not be saved."),
            Some("The run was interrupted (its server stopped) and never finished.")
        ]
    );
    // A filter narrows the run.
    let lighting = links::LinkFilter {
        category: Some(links::Category::Lighting),
        network: Some(links::Network::Amazon),
    };
    let narrow = links::open_run(&mut conn, actor, lighting, later).unwrap();
    assert!(!narrow.links.is_empty() && narrow.links.len() < catalogue);
}

fn published(conn: &mut DbConnection, user_id: UserId) -> SetupId {
    let analysis_id = fixtures::analysis(conn, user_id, true, noon());
    let text = PostText { title: Some("Reported rig".into()), description: None };
    let new = NewSetup { user_id, analysis_id, text: &text, images: &[], before: None };
    setups::publish(conn, &new, noon()).unwrap()
}

fn dismissing_shows_a_setup_again_and_removing_deletes_it_both_logged(db: TestDb) {
    let mut conn = db.conn();
    let id = admin(&mut conn, "mod@example.com");
    let actor = Actor { id, username: "mod" };
    let owner = fixtures::account(&mut conn, "owner@example.com");
    let (kept, removed) = (published(&mut conn, owner.id), published(&mut conn, owner.id));
    let reporters: Vec<_> = (0..3)
        .map(|i| fixtures::established_reporter(&mut conn, &format!("rep-{i}@example.com"), noon()))
        .collect();
    for reporter in &reporters {
        reports::report(
            &mut conn,
            reporter,
            kept,
            NewReport::new(ReportReason::Spam, Some("ads")),
            noon(),
            &FeedChanges::default(),
        )
        .unwrap();
    }
    let reporter = fixtures::verified_account(&mut conn, "rep-x@example.com", noon());
    reports::report(
        &mut conn,
        &reporter,
        removed,
        NewReport::new(ReportReason::Copyright, None),
        noon(),
        &FeedChanges::default(),
    )
    .unwrap();

    let queue = moderation::queue(&mut conn).unwrap();
    assert_eq!(queue.iter().map(|s| s.setup_id).collect::<Vec<_>>(), [kept, removed], "hidden first");
    assert!(queue[0].hidden);
    assert_eq!(queue[0].reports.len(), 3);
    assert_eq!(queue[0].reports[0].reporter_email, "rep-0@example.com", "admins see who reported");
    assert_eq!(queue[0].reasons(), [(ReportReason::Spam, 3)]);

    moderation::decide(
        &mut conn,
        actor,
        kept,
        Decision::Dismiss,
        Some("Not spam"),
        noon(),
        &FeedChanges::default(),
    )
    .unwrap();
    let setup = setups::find(&mut conn, kept).unwrap();
    assert!(!setup.hidden, "shown again");
    assert_eq!(setup.open_reports, 0);
    moderation::decide(&mut conn, actor, removed, Decision::Remove, None, noon(), &FeedChanges::default())
        .unwrap();
    assert!(setups::find(&mut conn, removed).is_err());
    assert!(moderation::queue(&mut conn).unwrap().is_empty());
    // The same users cannot report the dismissed setup again.
    let again = reports::report(
        &mut conn,
        &reporters[2],
        kept,
        NewReport::new(ReportReason::Spam, None),
        noon(),
        &FeedChanges::default(),
    )
    .unwrap();
    assert!(!again.counted);

    // The bell: the owner hears their post went, every reporter what became of their report.
    let told = |conn: &mut setupiq_db::DbConnection, user: UserId| {
        let inbox = notifications::inbox(conn, user, 20, 0).unwrap();
        inbox.notifications.into_iter().map(|n| (n.kind, n.setup_id, n.excerpt)).collect::<Vec<_>>()
    };
    let title = Some("Reported rig".to_owned());
    assert_eq!(
        told(&mut conn, owner.id),
        [(NotificationKind::PostRemoved, None, title.clone())],
        "not the dismissal"
    );
    assert_eq!(told(&mut conn, reporter.id), [(NotificationKind::ReportUpheld, None, title.clone())]);
    assert_eq!(told(&mut conn, reporters[2].id), [(NotificationKind::ReportDismissed, Some(kept), title)]);
    assert!(told(&mut conn, id).is_empty(), "the moderator hears nothing of their own decisions");

    let (entries, _) = log::page(&mut conn, 10, 0).unwrap();
    assert_eq!(entries[0].action, Action::RemoveSetup);
    assert_eq!(entries[1].action, Action::DismissReports);
    assert_eq!(entries[1].details.as_deref(), Some("3 open reports closed. Not spam"));
    assert_eq!((entries[1].target_type.as_str(), entries[1].target_id), ("setup", kept.0));
    assert!(matches!(
        moderation::decide(
            &mut conn,
            actor,
            removed,
            Decision::Dismiss,
            None,
            noon(),
            &FeedChanges::default()
        ),
        Err(AdminError::Community(_))
    ));
}

fn accounts_are_found_and_changed_and_no_admin_removes_their_own_role(db: TestDb) {
    let mut conn = db.conn();
    let id = admin(&mut conn, "boss@example.com");
    let actor = Actor { id, username: "boss" };
    let gamer = fixtures::account(&mut conn, "Gamer.One@Example.com");
    fixtures::account(&mut conn, "other@example.com");

    let ids = |query: &str, conn: &mut DbConnection| {
        users::search(conn, query, 0).unwrap().accounts.iter().map(|a| a.id).collect::<Vec<_>>()
    };
    assert_eq!(ids("GAMER.ONE@example.com", &mut conn), [gamer.id]);
    assert_eq!(ids("r.one@EXAMPLE", &mut conn), [gamer.id], "any part of an e-mail");
    let middle = &gamer.username[1..gamer.username.len() - 1];
    assert!(ids(&middle.to_uppercase(), &mut conn).contains(&gamer.id), "any part of a username");
    assert!(ids("%", &mut conn).is_empty(), "wildcards match themselves");
    let everyone = users::search(&mut conn, "  ", 0).unwrap();
    assert_eq!(everyone.total, 3, "a blank search lists every account");
    assert_eq!(
        everyone.accounts.first().map(|a| a.id),
        Some(everyone.accounts.iter().map(|a| a.id).max().unwrap()),
        "newest first"
    );
    assert_eq!(users::search(&mut conn, "", 2).unwrap().accounts.len(), 1, "paged");

    let pro = users::change(&mut conn, actor, gamer.id, users::Change::Pro(true), noon()).unwrap();
    assert!(pro.is_pro);
    let made_admin = users::change(&mut conn, actor, gamer.id, users::Change::Admin(true), noon()).unwrap();
    assert!(made_admin.is_admin());
    assert!(matches!(
        users::change(&mut conn, actor, id, users::Change::Admin(false), noon()),
        Err(AdminError::OwnAdminRole)
    ));
    assert!(users::change(&mut conn, actor, UserId(999_999), users::Change::Pro(true), noon()).is_err());
    let (entries, total) = log::page(&mut conn, 10, 0).unwrap();
    assert_eq!(total, 2, "refused changes are not logged");
    assert_eq!(entries.iter().map(|e| e.action.as_str()).collect::<Vec<_>>(), ["grant_admin", "grant_pro"]);
}

/// The handles of a bulk action over the test's database, with `hooks` (what the gateway
/// registers for deletion) and a clock at noon.
fn bulk_ctx(db: &TestDb, dir: &std::path::Path, hooks: setupiq_db::hooks::Hooks) -> setupiq_db::AppCtx {
    let clock = std::sync::Arc::new(setupiq_core::clock::ManualClock::new(noon()));
    let mut ctx = fixtures::ctx(db.db(), clock, dir);
    ctx.hooks = std::sync::Arc::new(hooks);
    ctx
}

fn outcome(user_id: UserId, skipped: Option<Skip>) -> BulkOutcome {
    BulkOutcome { user_id, skipped }
}

async fn bulk_changes_change_each_account_once_logged_and_skip_the_rest_with_reasons(db: TestDb) {
    let dir = tempfile::tempdir().unwrap();
    let ctx = bulk_ctx(&db, dir.path(), setupiq_db::hooks::Hooks::default());
    let (boss, fresh, granted, verified) = {
        let mut conn = db.conn();
        let boss = admin(&mut conn, "boss@example.com");
        let fresh = fixtures::account(&mut conn, "fresh@example.com").id;
        let granted = fixtures::account(&mut conn, "granted@example.com").id;
        setupiq_auth::service::accounts::set_pro(&mut conn, granted, true, noon()).unwrap();
        let verified = fixtures::verified_account(&mut conn, "verified@example.com", noon()).id;
        (boss, fresh, granted, verified)
    };
    let actor = || (boss, "boss".to_owned());
    let unknown = UserId(999_999);
    let run =
        |ids: Vec<UserId>, change: BulkChange| users::bulk(&ctx, actor(), ids, BulkAction::Change(change));

    let granting = run(vec![fresh, granted, unknown], BulkChange::GrantPro).await.unwrap();
    assert_eq!(
        granting,
        [
            outcome(fresh, None),
            outcome(granted, Some(Skip::AlreadyPro)),
            outcome(unknown, Some(Skip::NotFound))
        ],
        "one outcome per id, in order"
    );
    let account = |id| setupiq_auth::service::accounts::find(&mut db.conn(), id).unwrap().unwrap();
    assert!(account(fresh).is_pro);

    let revoking = run(vec![granted, verified, boss], BulkChange::RevokePro).await.unwrap();
    assert_eq!(
        revoking,
        [outcome(granted, None), outcome(verified, Some(Skip::NoGrant)), outcome(boss, Some(Skip::NoGrant))],
        "an admin may act on their own Pro, as the single action lets them"
    );
    assert!(!account(granted).is_pro);

    assert!(!account(fresh).email_verified);
    let verifying = run(vec![fresh, verified], BulkChange::Verify).await.unwrap();
    assert_eq!(verifying, [outcome(fresh, None), outcome(verified, Some(Skip::AlreadyVerified))]);
    assert!(account(fresh).email_verified);
    assert!(!account(fresh).is_admin(), "verifying gives no role");

    let (entries, total) = log::page(&mut db.conn(), 10, 0).unwrap();
    assert_eq!(total, 3, "only the accounts changed are logged");
    let logged: Vec<_> = entries.iter().map(|e| (e.action, e.target_id, e.admin_name.as_str())).collect();
    assert_eq!(
        logged,
        [
            (Action::VerifyEmail, fresh.0, "boss"),
            (Action::RevokePro, granted.0, "boss"),
            (Action::GrantPro, fresh.0, "boss")
        ]
    );
}

async fn bulk_deletion_is_the_members_own_and_spares_oneself_admins_and_blocked_accounts(db: TestDb) {
    let dir = tempfile::tempdir().unwrap();
    let (boss, other_admin, leaving, blocked, author, their_setup, liked) = {
        let mut conn = db.conn();
        let boss = admin(&mut conn, "boss@example.com");
        let other_admin = admin(&mut conn, "second@example.com");
        let leaving = fixtures::verified_account(&mut conn, "leaving@example.com", noon());
        let blocked = fixtures::account(&mut conn, "subscribed@example.com").id;
        let author = fixtures::account(&mut conn, "author@example.com").id;
        let their_setup = published(&mut conn, leaving.id);
        let liked = published(&mut conn, author);
        setupiq_community::service::votes::vote(
            &mut conn,
            &leaving,
            liked,
            setupiq_community::service::votes::Vote::Up,
            noon(),
            &FeedChanges::default(),
        )
        .unwrap();
        (boss, other_admin, leaving.id, blocked, author, their_setup, liked)
    };
    assert_eq!(setups::find(&mut db.conn(), liked).unwrap().score, 1);
    // The gateway's hooks as deletion runs them: the community's, and a subscription that
    // cannot be ended for one member.
    let mut hooks = setupiq_db::hooks::Hooks::default();
    hooks.owned_media =
        setupiq_db::hooks::OwnedMedia(vec![setupiq_community::service::setups::on_account_deleted]);
    hooks.departures = setupiq_db::hooks::Departures(vec![std::sync::Arc::new(move |_ctx, user_id| {
        Box::pin(async move { if user_id == blocked { Err("stripe: unreachable".into()) } else { Ok(()) } })
    })]);
    let ctx = bulk_ctx(&db, dir.path(), hooks);
    let unknown = UserId(999_999);

    let outcomes = users::bulk(
        &ctx,
        (boss, "boss".to_owned()),
        vec![leaving, boss, other_admin, blocked, unknown],
        BulkAction::Delete,
    )
    .await
    .unwrap();
    assert_eq!(
        outcomes,
        [
            outcome(leaving, None),
            outcome(boss, Some(Skip::Yourself)),
            outcome(other_admin, Some(Skip::Admin)),
            outcome(blocked, Some(Skip::Blocked)),
            outcome(unknown, Some(Skip::NotFound)),
        ]
    );
    let mut conn = db.conn();
    let exists =
        |conn: &mut DbConnection, id| setupiq_auth::service::accounts::find(conn, id).unwrap().is_some();
    assert!(!exists(&mut conn, leaving));
    assert!(
        exists(&mut conn, boss)
            && exists(&mut conn, other_admin)
            && exists(&mut conn, blocked)
            && exists(&mut conn, author)
    );
    // What the member's own deletion takes: their analyses and posts, and their vote out of
    // the score it counted in.
    assert!(setups::find(&mut conn, their_setup).is_err(), "their post is gone");
    let analyses: i64 = setupiq_db::schema::analyses::table
        .filter(setupiq_db::schema::analyses::user_id.eq(leaving))
        .count()
        .get_result(&mut conn)
        .unwrap();
    assert_eq!(analyses, 0, "their analyses are gone");
    assert_eq!(setups::find(&mut conn, liked).unwrap().score, 0, "their vote no longer counts");

    let (entries, total) = log::page(&mut conn, 10, 0).unwrap();
    assert_eq!(total, 1, "only the deletion made is logged");
    assert_eq!(entries[0].action, Action::DeleteAccount);
    assert_eq!((entries[0].target_type.as_str(), entries[0].target_id), ("user", leaving.0));
    let username = entries[0].details.clone().unwrap();
    assert!(username.starts_with('@') && username.len() > 1, "the log names who went: {username}");
}
