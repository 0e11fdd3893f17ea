//! The account rules, run directly against both databases.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use chrono::{Duration, Timelike, Utc};
use diesel::prelude::*;
use setupiq_auth::AuthError;
use setupiq_auth::service::ledger::LedgerReason;
use setupiq_auth::service::throttle::Pace;
use setupiq_auth::service::{accounts, ledger, password_change, reset, sessions, throttle, verify};
use setupiq_core::UserId;
use setupiq_db::schema::{
    credit_ledger, email_verification_tokens, login_attempts, password_reset_tokens,
    sessions as sessions_table, users,
};
use setupiq_db::write_transaction;
use setupiq_test_utils::{TestDb, both_backends, fixtures};

both_backends!(
    registration_grants_the_signup_bonus_through_the_ledger,
    emails_are_unique_whatever_their_case,
    the_same_email_registered_20_times_at_once_yields_one_account,
    usernames_stay_unique_and_valid,
    username_changes_follow_the_rules,
    sessions_end_when_idle_too_long_and_after_30_days,
    session_tokens_are_stored_hashed_and_revocable,
    the_live_sessions_are_listed_by_device_with_the_current_first,
    the_export_holds_the_account_and_its_sections_in_order,
    reset_tokens_are_single_use_expire_and_end_all_sessions,
    a_password_change_ends_the_other_sessions_and_reset_links_only,
    an_address_that_keeps_guessing_locks_only_itself_out_of_the_account,
    guesses_from_many_addresses_slow_the_account_but_never_lock_out_an_address_that_did_not_fail,
    a_completed_password_reset_clears_the_accounts_failed_logins,
    the_ledger_never_goes_negative_nor_credits_twice,
    deleting_an_account_removes_its_data,
    admins_are_granted_by_cli_and_by_configuration,
    verification_links_are_hashed_single_use_and_expire_after_a_day,
    following_the_link_grants_the_admin_role_of_a_listed_address_only,
    verification_emails_are_limited_to_five_an_hour,
    an_account_moves_to_a_new_address_only_when_its_link_is_followed,
    an_admin_moving_to_an_address_not_listed_loses_the_role,
    display_names_are_stored_composed_and_without_hidden_characters,
    an_account_is_established_once_verified_and_a_day_old,
);

fn registration_grants_the_signup_bonus_through_the_ledger(db: TestDb) {
    let mut conn = db.conn();
    let account = fixtures::account(&mut conn, "  New.Gamer@Example.COM ");
    assert_eq!(account.email, "new.gamer@example.com");
    assert_eq!(account.credits, ledger::SIGNUP_BONUS);
    assert_eq!(account.username, "Test_Gamer");
    assert!(ledger::balance_matches_ledger(&mut conn, account.id).unwrap());
    let reasons: Vec<String> = credit_ledger::table
        .filter(credit_ledger::user_id.eq(account.id))
        .select(credit_ledger::reason)
        .load(&mut *conn)
        .unwrap();
    assert_eq!(reasons, vec!["signup_bonus"]);
}

fn emails_are_unique_whatever_their_case(db: TestDb) {
    let mut conn = db.conn();
    fixtures::account(&mut conn, "dup@example.com");
    let again = accounts::Registration {
        email: "DUP@Example.com",
        display_name: "Other",
        password_hash: fixtures::password_hash(),
        signup_bonus: true,
    };
    assert!(matches!(accounts::register(&mut conn, &again, Utc::now()), Err(AuthError::EmailTaken)));
    let count: i64 = users::table.count().get_result(&mut *conn).unwrap();
    assert_eq!(count, 1);
}

fn the_same_email_registered_20_times_at_once_yields_one_account(db: TestDb) {
    let results: Vec<Result<_, AuthError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..20)
            .map(|_| {
                scope.spawn(|| {
                    let mut conn = db.conn();
                    let registration = accounts::Registration {
                        email: "race@example.com",
                        display_name: "Racer",
                        password_hash: fixtures::password_hash(),
                        signup_bonus: true,
                    };
                    accounts::register(&mut conn, &registration, Utc::now())
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let created = results.iter().filter(|r| r.is_ok()).count();
    let taken = results.iter().filter(|r| matches!(r, Err(AuthError::EmailTaken))).count();
    assert_eq!((created, taken), (1, 19), "{results:?}");
    let mut conn = db.conn();
    let count: i64 = users::table.count().get_result(&mut *conn).unwrap();
    assert_eq!(count, 1);
    let ledger_rows: i64 = credit_ledger::table.count().get_result(&mut *conn).unwrap();
    assert_eq!(ledger_rows, 1, "only the created account got a bonus");
}

fn usernames_stay_unique_and_valid(db: TestDb) {
    let mut conn = db.conn();
    let first = fixtures::account(&mut conn, "one@example.com");
    let second = fixtures::account(&mut conn, "two@example.com");
    assert_eq!(first.username, "Test_Gamer");
    assert_ne!(second.username.to_lowercase(), first.username.to_lowercase());
    assert!(second.username.starts_with("Test_Gamer_"));
    assert!(accounts::is_valid_username_charset(&second.username));
}

fn username_changes_follow_the_rules(db: TestDb) {
    let mut conn = db.conn();
    let me = fixtures::account(&mut conn, "me@example.com");
    let other = fixtures::account(&mut conn, "other@example.com");
    let now = Utc::now();
    assert!(matches!(
        accounts::change_username(&mut conn, me.id, &me.username, now),
        Err(AuthError::SameUsername)
    ));
    let taken = other.username.to_uppercase();
    assert!(matches!(
        accounts::change_username(&mut conn, me.id, &taken, now),
        Err(AuthError::UsernameTaken)
    ));
    let renamed = accounts::change_username(&mut conn, me.id, "Pixel_Pete", now).unwrap();
    assert_eq!(renamed.username, "Pixel_Pete");
    assert_eq!(accounts::find(&mut conn, me.id).unwrap().unwrap().username, "Pixel_Pete");
    // Changing only the case of one's own name is allowed.
    assert_eq!(
        accounts::change_username(&mut conn, me.id, "pixel_pete", now).unwrap().username,
        "pixel_pete"
    );
    // Names that would pass for the team's own, in any case.
    for reserved in ["admin", "Support", "OFFICIAL", "help", "SetupIQ", "setupiq_team", "Real_SetupIQ"] {
        assert!(
            matches!(
                accounts::change_username(&mut conn, me.id, reserved, now),
                Err(AuthError::UsernameReserved)
            ),
            "{reserved}"
        );
    }
    assert_eq!(accounts::find(&mut conn, me.id).unwrap().unwrap().username, "pixel_pete");
}

fn sessions_end_when_idle_too_long_and_after_30_days(db: TestDb) {
    let mut conn = db.conn();
    let me = fixtures::account(&mut conn, "s@example.com");
    let t0 = Utc::now();
    let idle = sessions::start(&mut conn, me.id, None, t0).unwrap();
    assert_eq!(sessions::authenticate(&mut conn, &idle.token, t0).unwrap().unwrap().id, me.id);
    assert!(
        sessions::authenticate(&mut conn, &idle.token, t0 + Duration::days(7) + Duration::seconds(1))
            .unwrap()
            .is_none()
    );
    assert!(
        sessions::authenticate(&mut conn, &idle.token, t0).unwrap().is_none(),
        "an expired session is deleted"
    );

    let busy = sessions::start(&mut conn, me.id, None, t0).unwrap();
    for day in [6, 12, 18, 24, 29] {
        assert!(
            sessions::authenticate(&mut conn, &busy.token, t0 + Duration::days(day)).unwrap().is_some(),
            "day {day}"
        );
    }
    assert!(sessions::authenticate(&mut conn, &busy.token, t0 + Duration::days(30)).unwrap().is_none());
    assert!(sessions::authenticate(&mut conn, "not-a-token", t0).unwrap().is_none());
}

fn session_tokens_are_stored_hashed_and_revocable(db: TestDb) {
    let mut conn = db.conn();
    let me = fixtures::account(&mut conn, "h@example.com");
    let now = Utc::now();
    let a = sessions::start(&mut conn, me.id, None, now).unwrap();
    let b = sessions::start(&mut conn, me.id, None, now).unwrap();
    assert_ne!(a.token, b.token);
    let stored: Vec<String> =
        sessions_table::table.select(sessions_table::token_hash).load(&mut *conn).unwrap();
    assert!(!stored.contains(&a.token) && !stored.contains(&b.token));
    sessions::end(&mut conn, &a.token).unwrap();
    assert!(sessions::authenticate(&mut conn, &a.token, now).unwrap().is_none());
    assert!(sessions::authenticate(&mut conn, &b.token, now).unwrap().is_some());
    assert_eq!(sessions::end_all(&mut conn, me.id).unwrap(), 1);
    assert!(sessions::authenticate(&mut conn, &b.token, now).unwrap().is_none());
}

fn the_live_sessions_are_listed_by_device_with_the_current_first(db: TestDb) {
    let mut conn = db.conn();
    let me = fixtures::account(&mut conn, "list@example.com");
    let other = fixtures::account(&mut conn, "elsewhere@example.com");
    let t0 = Utc::now();
    let chrome = "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36";
    let stale =
        sessions::start(&mut conn, me.id, Some("Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0"), t0).unwrap();
    let here = sessions::start(&mut conn, me.id, None, t0 + Duration::days(6)).unwrap();
    sessions::start(&mut conn, me.id, Some(chrome), t0 + Duration::days(7)).unwrap();
    sessions::start(&mut conn, other.id, Some(chrome), t0 + Duration::days(7)).unwrap();

    let now = t0 + Duration::days(7) + Duration::minutes(1);
    let listed = sessions::list(&mut conn, me.id, &here.token, now).unwrap();
    let seen: Vec<(&str, bool)> = listed.iter().map(|s| (s.device.as_str(), s.current)).collect();
    assert_eq!(seen, [("Unknown device", true), ("Chrome on Android", false)], "idle for 7 days: gone");
    assert_eq!(listed[1].signed_in_at.timestamp(), (t0 + Duration::days(7)).timestamp());
    assert!(sessions::authenticate(&mut conn, &stale.token, now).unwrap().is_none());
}

fn the_export_holds_the_account_and_its_sections_in_order(db: TestDb) {
    use setupiq_auth::service::export::{self, AccountData, Section, SectionError};
    fn first(_: &mut setupiq_db::DbConnection, user_id: UserId) -> Result<Section, SectionError> {
        Section::new("first", &serde_json::json!({ "owner": user_id }))
    }
    fn broken(_: &mut setupiq_db::DbConnection, _: UserId) -> Result<Section, SectionError> {
        Err("a stored document no longer parses".into())
    }
    let mut conn = db.conn();
    let me = fixtures::account(&mut conn, "export@example.com");
    let now = Utc::now();
    let here = sessions::start(&mut conn, me.id, None, now).unwrap();

    let exported = export::export(&mut conn, me.id, &here.token, &AccountData(vec![first]), now).unwrap();
    assert_eq!(exported.account.email, "export@example.com");
    assert_eq!(exported.sessions.len(), 1);
    assert_eq!(exported.sections.len(), 1);
    assert_eq!(
        (exported.sections[0].name, &exported.sections[0].data),
        ("first", &serde_json::json!({ "owner": me.id }))
    );
    let failed = export::export(&mut conn, me.id, &here.token, &AccountData(vec![first, broken]), now);
    assert!(matches!(failed, Err(AuthError::Export(_))), "a part that fails fails the export, not silently");
}

fn a_password_change_ends_the_other_sessions_and_reset_links_only(db: TestDb) {
    let mut conn = db.conn();
    let me = fixtures::account(&mut conn, "change@example.com");
    let other = fixtures::account(&mut conn, "bystander@example.com");
    let now = Utc::now();
    let (here, laptop, phone) = (
        sessions::start(&mut conn, me.id, None, now).unwrap(),
        sessions::start(&mut conn, me.id, None, now).unwrap(),
        sessions::start(&mut conn, me.id, None, now).unwrap(),
    );
    let theirs = sessions::start(&mut conn, other.id, None, now).unwrap();
    let link = reset::request(&mut conn, "change@example.com", now).unwrap().unwrap();
    let their_link = reset::request(&mut conn, "bystander@example.com", now).unwrap().unwrap();

    assert_eq!(password_change::end_other_sessions(&mut conn, me.id, &here.token).unwrap(), 2);
    assert!(sessions::authenticate(&mut conn, &here.token, now).unwrap().is_some(), "this one stays");
    for ended in [&laptop, &phone] {
        assert!(sessions::authenticate(&mut conn, &ended.token, now).unwrap().is_none());
    }
    assert!(matches!(reset::verify(&mut conn, &link.token, now), Err(AuthError::InvalidResetToken)));
    // Nobody else's sessions or links are touched.
    assert!(sessions::authenticate(&mut conn, &theirs.token, now).unwrap().is_some());
    assert_eq!(reset::verify(&mut conn, &their_link.token, now).unwrap().email, "bystander@example.com");
}

fn reset_tokens_are_single_use_expire_and_end_all_sessions(db: TestDb) {
    let mut conn = db.conn();
    let me = fixtures::account(&mut conn, "r@example.com");
    let t0 = Utc::now();
    assert!(reset::request(&mut conn, "nobody@example.com", t0).unwrap().is_none());
    let first = reset::request(&mut conn, "R@example.com", t0).unwrap().unwrap();
    assert!(first.token.len() >= 22, "at least 128 bits");
    assert!(
        reset::request(&mut conn, "r@example.com", t0 + Duration::seconds(30)).unwrap().is_none(),
        "cooldown"
    );
    let second = reset::request(&mut conn, "r@example.com", t0 + Duration::seconds(61)).unwrap().unwrap();
    let stored: Vec<String> =
        password_reset_tokens::table.select(password_reset_tokens::token_hash).load(&mut *conn).unwrap();
    assert!(!stored.contains(&first.token), "stored hashed");

    let session = sessions::start(&mut conn, me.id, None, t0).unwrap();
    assert_eq!(
        reset::verify(&mut conn, &second.token, t0 + Duration::minutes(59)).unwrap().email,
        "r@example.com"
    );
    assert!(matches!(
        reset::verify(&mut conn, &second.token, t0 + Duration::minutes(62)),
        Err(AuthError::InvalidResetToken)
    ));

    let when = t0 + Duration::minutes(5);
    reset::complete(&mut conn, &second.token, "new-hash", when).unwrap();
    assert!(sessions::authenticate(&mut conn, &session.token, when).unwrap().is_none(), "sessions revoked");
    assert!(matches!(
        reset::complete(&mut conn, &second.token, "again", when),
        Err(AuthError::InvalidResetToken)
    ));
    assert!(
        matches!(reset::verify(&mut conn, &first.token, when), Err(AuthError::InvalidResetToken)),
        "older links die too"
    );
    let hash: String = users::table.find(me.id).select(users::password_hash).first(&mut *conn).unwrap();
    assert_eq!(hash, "new-hash");
}

fn an_address_that_keeps_guessing_locks_only_itself_out_of_the_account(db: TestDb) {
    let mut conn = db.conn();
    let t0 = Utc::now();
    let (victim, attacker, owner) = ("victim@example.com", Some("198.51.100.7"), Some("203.0.113.20"));
    for _ in 0..throttle::MAX_ADDRESS_FAILURES {
        assert_eq!(throttle::check(&mut conn, victim, attacker, t0).unwrap(), Pace::Now);
        throttle::record_failure(&mut conn, victim, attacker, t0).unwrap();
    }
    let Err(AuthError::Throttled { retry_after_secs }) =
        throttle::check(&mut conn, victim, attacker, t0 + Duration::minutes(5))
    else {
        panic!("the guessing address should be locked out");
    };
    assert_eq!(retry_after_secs, 600);
    assert_eq!(
        throttle::check(&mut conn, victim, owner, t0).unwrap(),
        Pace::Now,
        "the owner elsewhere is not"
    );
    assert_eq!(throttle::check(&mut conn, victim, None, t0).unwrap(), Pace::Now, "nor an unknown address");
    throttle::check(&mut conn, victim, attacker, t0 + Duration::minutes(16)).unwrap();

    // The owner signing in forgives their own slips, not the attacker's guesses.
    for _ in 0..throttle::MAX_ADDRESS_FAILURES - 1 {
        throttle::record_failure(&mut conn, victim, owner, t0).unwrap();
    }
    throttle::record_success(&mut conn, victim, owner).unwrap();
    throttle::record_failure(&mut conn, victim, owner, t0).unwrap();
    throttle::check(&mut conn, victim, owner, t0).unwrap();
    assert!(matches!(throttle::check(&mut conn, victim, attacker, t0), Err(AuthError::Throttled { .. })));

    // One address guessing at many accounts is locked out of all of them.
    for i in 0..throttle::MAX_IP_FAILURES {
        throttle::record_failure(&mut conn, &format!("user{i}@example.com"), Some("203.0.113.9"), t0)
            .unwrap();
    }
    assert!(matches!(
        throttle::check(&mut conn, "fresh@example.com", Some("203.0.113.9"), t0),
        Err(AuthError::Throttled { .. })
    ));
    throttle::check(&mut conn, "fresh@example.com", Some("203.0.113.10"), t0).unwrap();
}

fn guesses_from_many_addresses_slow_the_account_but_never_lock_out_an_address_that_did_not_fail(db: TestDb) {
    let mut conn = db.conn();
    let t0 = Utc::now();
    let victim = "victim@example.com";
    for i in 0..throttle::ACCOUNT_CEILING {
        let address = format!("10.0.{}.{}", i / 250, i % 250);
        assert_eq!(throttle::check(&mut conn, victim, Some(&address), t0).unwrap(), Pace::Now);
        throttle::record_failure(&mut conn, victim, Some(&address), t0).unwrap();
    }
    assert_eq!(
        throttle::check(&mut conn, victim, Some("203.0.113.20"), t0).unwrap(),
        Pace::Slowed,
        "a fresh address still gets its turn, after the delay"
    );
    assert!(
        matches!(throttle::check(&mut conn, victim, Some("10.0.0.1"), t0), Err(AuthError::Throttled { .. })),
        "over the ceiling, one failure locks an address out"
    );
    assert_eq!(throttle::check(&mut conn, "other@example.com", Some("10.0.0.1"), t0).unwrap(), Pace::Now);
    assert_eq!(
        throttle::check(&mut conn, victim, Some("10.0.0.1"), t0 + Duration::minutes(16)).unwrap(),
        Pace::Now
    );
}

fn a_completed_password_reset_clears_the_accounts_failed_logins(db: TestDb) {
    let mut conn = db.conn();
    let t0 = Utc::now();
    fixtures::account(&mut conn, "locked@example.com");
    let attacker = Some("198.51.100.7");
    for _ in 0..throttle::MAX_ADDRESS_FAILURES {
        throttle::record_failure(&mut conn, "locked@example.com", attacker, t0).unwrap();
    }
    throttle::record_failure(&mut conn, "bystander@example.com", attacker, t0).unwrap();
    let link = reset::request(&mut conn, "locked@example.com", t0).unwrap().unwrap();
    assert!(matches!(
        throttle::check(&mut conn, "locked@example.com", attacker, t0),
        Err(AuthError::Throttled { .. })
    ));
    reset::complete(&mut conn, &link.token, "new-hash", t0).unwrap();
    assert_eq!(throttle::check(&mut conn, "locked@example.com", attacker, t0).unwrap(), Pace::Now);
    let left: i64 = login_attempts::table.count().get_result(&mut *conn).unwrap();
    assert_eq!(left, 1, "another account's failures stay");
}

fn the_ledger_never_goes_negative_nor_credits_twice(db: TestDb) {
    let mut conn = db.conn();
    let me = fixtures::account(&mut conn, "l@example.com");
    let now = Utc::now();
    let purchase = LedgerReason::Purchase { package_id: "popular".into() };
    let spend = write_transaction(&mut conn, |c| {
        ledger::apply(c, me.id, -4, &LedgerReason::Spend("test_charge".into()), None, now)
    });
    assert!(matches!(spend, Err(AuthError::InsufficientCredits { needed: 4, available: 3 })));
    let paid = write_transaction(&mut conn, |c| ledger::apply(c, me.id, 10, &purchase, Some("pi_123"), now))
        .unwrap();
    assert_eq!(paid, 13);
    let twice = write_transaction(&mut conn, |c| ledger::apply(c, me.id, 10, &purchase, Some("pi_123"), now));
    assert!(matches!(twice, Err(AuthError::AlreadyApplied)));
    assert_eq!(accounts::find(&mut conn, me.id).unwrap().unwrap().credits, 13);
    assert!(ledger::balance_matches_ledger(&mut conn, me.id).unwrap());
}

fn deleting_an_account_removes_its_data(db: TestDb) {
    let mut conn = db.conn();
    let me = fixtures::account(&mut conn, "bye@example.com");
    let keep = fixtures::account(&mut conn, "stay@example.com");
    let now = Utc::now();
    sessions::start(&mut conn, me.id, None, now).unwrap();
    sessions::start(&mut conn, keep.id, None, now).unwrap();
    reset::request(&mut conn, "bye@example.com", now).unwrap().unwrap();
    accounts::replace_profile_picture(&mut conn, me.id, "/media/avatars/abc.png", now).unwrap();

    let media = accounts::delete_account(&mut conn, me.id, Utc::now()).unwrap();
    assert_eq!(media.iter().map(|k| k.url()).collect::<Vec<_>>(), vec!["/media/avatars/abc.png"]);
    assert!(accounts::find(&mut conn, me.id).unwrap().is_none());
    let sessions_left: Vec<UserId> =
        sessions_table::table.select(sessions_table::user_id).load(&mut *conn).unwrap();
    assert_eq!(sessions_left, vec![keep.id]);
    let tokens_left: i64 = password_reset_tokens::table.count().get_result(&mut *conn).unwrap();
    let ledger_left: Vec<UserId> =
        credit_ledger::table.select(credit_ledger::user_id).load(&mut *conn).unwrap();
    assert_eq!((tokens_left, ledger_left), (0, vec![keep.id]));
}

fn admins_are_granted_by_cli_and_by_configuration(db: TestDb) {
    let mut conn = db.conn();
    let boss = fixtures::account(&mut conn, "boss@example.com");
    let ops = fixtures::account(&mut conn, "ops@example.com");
    assert!(!boss.is_admin());
    assert!(accounts::grant_admin(&mut conn, "BOSS@example.com", Utc::now()).unwrap().is_admin());
    assert!(matches!(
        accounts::grant_admin(&mut conn, "ghost@example.com", Utc::now()),
        Err(AuthError::UserNotFound)
    ));
    let listed: Vec<String> = vec!["ops@example.com".into(), "boss@example.com".into()];
    let promoted = accounts::promote_admins(&mut conn, &listed, Utc::now()).unwrap();
    assert_eq!(promoted, 0, "an unverified address in the list is no admin");
    assert!(!accounts::find(&mut conn, ops.id).unwrap().unwrap().is_admin());
    // Verified without the list at hand (say, before the operator added the address): the
    // next start-up promotes it.
    let link = verify::create_link(&mut conn, ops.id, Utc::now()).unwrap();
    verify::verify(&mut conn, &link.token, &[], Utc::now()).unwrap();
    assert_eq!(accounts::promote_admins(&mut conn, &listed, Utc::now()).unwrap(), 1);
    assert!(accounts::find(&mut conn, ops.id).unwrap().unwrap().is_admin());
}

fn verification_links_are_hashed_single_use_and_expire_after_a_day(db: TestDb) {
    let mut conn = db.conn();
    let me = fixtures::account(&mut conn, "v@example.com");
    assert!(!me.email_verified && !verify::is_verified(&mut conn, me.id).unwrap());
    let t0 = Utc::now();
    let first = verify::create_link(&mut conn, me.id, t0).unwrap();
    assert!(first.token.len() >= 22, "at least 128 bits");
    assert_eq!(first.account.email, "v@example.com");
    let stored: Vec<String> = email_verification_tokens::table
        .select(email_verification_tokens::token_hash)
        .load(&mut *conn)
        .unwrap();
    assert_eq!(stored.len(), 1);
    assert!(!stored.contains(&first.token), "stored hashed");

    assert!(matches!(verify::verify(&mut conn, "forged", &[], t0), Err(AuthError::VerificationLinkInvalid)));
    assert!(
        matches!(
            verify::verify(&mut conn, &first.token, &[], t0 + Duration::hours(24)),
            Err(AuthError::VerificationLinkExpired)
        ),
        "24 hours and it is gone"
    );
    assert!(!verify::is_verified(&mut conn, me.id).unwrap());

    let second = verify::create_link(&mut conn, me.id, t0 + Duration::hours(1)).unwrap();
    let third = verify::create_link(&mut conn, me.id, t0 + Duration::hours(2)).unwrap();
    let when = t0 + Duration::hours(3);
    let verified = verify::verify(&mut conn, &second.token, &[], when).unwrap().account;
    assert!(verified.email_verified && !verified.is_admin());
    assert!(accounts::find(&mut conn, me.id).unwrap().unwrap().email_verified);
    // Followed again, or another of its links (used up with it): the address is verified, and
    // that is the answer, with nothing changed.
    for used in [&second.token, &third.token] {
        let again = verify::verify(&mut conn, used, &[], when + Duration::hours(30)).unwrap();
        assert_eq!((again.account.email.as_str(), again.account.email_verified), ("v@example.com", true));
        assert_eq!(again.previous_email, None);
    }
    assert!(matches!(verify::create_link(&mut conn, me.id, when), Err(AuthError::AlreadyVerified)));
}

fn following_the_link_grants_the_admin_role_of_a_listed_address_only(db: TestDb) {
    let mut conn = db.conn();
    let listed: Vec<String> = vec!["boss@example.com".into()];
    let boss = fixtures::account(&mut conn, "Boss@Example.COM");
    let other = fixtures::account(&mut conn, "other@example.com");
    assert!(!boss.is_admin(), "registering a listed address (any case) gives no role");
    let now = Utc::now();
    let link = verify::create_link(&mut conn, other.id, now).unwrap();
    assert!(!verify::verify(&mut conn, &link.token, &listed, now).unwrap().account.is_admin());
    let link = verify::create_link(&mut conn, boss.id, now).unwrap();
    let verified = verify::verify(&mut conn, &link.token, &listed, now).unwrap().account;
    assert!(verified.is_admin() && verified.email_verified);
    assert!(accounts::find(&mut conn, boss.id).unwrap().unwrap().is_admin());
}

fn an_account_moves_to_a_new_address_only_when_its_link_is_followed(db: TestDb) {
    let mut conn = db.conn();
    let t0 = Utc::now();
    let me = fixtures::verified_account(&mut conn, "old@example.com", t0);
    fixtures::account(&mut conn, "taken@example.com");
    assert!(matches!(
        verify::create_change_link(&mut conn, me.id, " OLD@example.com ", t0),
        Err(AuthError::SameEmail)
    ));
    assert!(matches!(
        verify::create_change_link(&mut conn, me.id, "Taken@Example.com", t0),
        Err(AuthError::EmailTaken)
    ));
    let reset_link = reset::request(&mut conn, "old@example.com", t0).unwrap().unwrap();
    let first = verify::create_change_link(&mut conn, me.id, "First@Example.com", t0).unwrap();
    let second = verify::create_change_link(&mut conn, me.id, "second@example.com", t0).unwrap();
    assert!(first.is_change() && first.to == "first@example.com");
    assert_eq!(
        accounts::find(&mut conn, me.id).unwrap().unwrap().email,
        "old@example.com",
        "nothing moves yet"
    );

    let moved = verify::verify(&mut conn, &second.token, &[], t0 + Duration::minutes(5)).unwrap();
    assert_eq!(moved.previous_email.as_deref(), Some("old@example.com"));
    assert_eq!((moved.account.email.as_str(), moved.account.email_verified), ("second@example.com", true));
    assert!(
        matches!(verify::verify(&mut conn, &first.token, &[], t0), Err(AuthError::VerificationLinkUsed)),
        "an older link cannot move it again"
    );
    assert!(
        matches!(reset::verify(&mut conn, &reset_link.token, t0), Err(AuthError::InvalidResetToken)),
        "a reset link mailed to the old address ends with the move"
    );

    // The address taken meanwhile by another account: the link refuses, nothing moves.
    let third = verify::create_change_link(&mut conn, me.id, "late@example.com", t0).unwrap();
    fixtures::account(&mut conn, "late@example.com");
    assert!(matches!(verify::verify(&mut conn, &third.token, &[], t0), Err(AuthError::EmailTaken)));
    assert_eq!(accounts::find(&mut conn, me.id).unwrap().unwrap().email, "second@example.com");
}

fn an_admin_moving_to_an_address_not_listed_loses_the_role(db: TestDb) {
    let mut conn = db.conn();
    let t0 = Utc::now();
    let listed: Vec<String> = vec!["boss@example.com".into(), "boss-new@example.com".into()];
    let boss = fixtures::verified_account(&mut conn, "boss@example.com", t0);
    accounts::grant_admin(&mut conn, "boss@example.com", t0).unwrap();
    let link = verify::create_change_link(&mut conn, boss.id, "boss-new@example.com", t0).unwrap();
    let moved = verify::verify(&mut conn, &link.token, &listed, t0).unwrap().account;
    assert!(moved.is_admin(), "a move between listed addresses keeps the role");

    let link = verify::create_change_link(&mut conn, boss.id, "elsewhere@example.com", t0).unwrap();
    let moved = verify::verify(&mut conn, &link.token, &listed, t0).unwrap().account;
    assert_eq!(moved.email, "elsewhere@example.com");
    assert!(!moved.is_admin(), "the role stays with the listed address");
    assert!(!accounts::find(&mut conn, boss.id).unwrap().unwrap().is_admin());

    // Granted by the command line, the role ends the same way; verifying the address the
    // account already has changes nothing.
    let ops = fixtures::account(&mut conn, "ops@example.com");
    accounts::grant_admin(&mut conn, "ops@example.com", t0).unwrap();
    let link = verify::create_link(&mut conn, ops.id, t0).unwrap();
    assert!(verify::verify(&mut conn, &link.token, &listed, t0).unwrap().account.is_admin());
    let link = verify::create_change_link(&mut conn, ops.id, "ops-home@example.com", t0).unwrap();
    assert!(!verify::verify(&mut conn, &link.token, &listed, t0).unwrap().account.is_admin());
}

fn display_names_are_stored_composed_and_without_hidden_characters(db: TestDb) {
    let mut conn = db.conn();
    let sneaky = accounts::Registration {
        email: "sneaky@example.com",
        display_name: "\u{202e}admin\u{200b}",
        password_hash: fixtures::password_hash(),
        signup_bonus: true,
    };
    assert!(matches!(
        accounts::register(&mut conn, &sneaky, Utc::now()),
        Err(AuthError::DisplayNameCharacters)
    ));
    let me = accounts::register(
        &mut conn,
        &accounts::Registration { display_name: " Jose\u{301} ", ..sneaky },
        Utc::now(),
    )
    .unwrap();
    assert_eq!(me.display_name, "Jos\u{e9}");
    assert!(matches!(
        accounts::change_display_name(&mut conn, me.id, "adm\u{200b}in", Utc::now()),
        Err(AuthError::DisplayNameCharacters)
    ));
    accounts::change_display_name(&mut conn, me.id, "Zoe\u{308} \u{1f469}\u{200d}\u{1f4bb}", Utc::now())
        .unwrap();
    let stored: String = users::table.find(me.id).select(users::display_name).first(&mut *conn).unwrap();
    assert_eq!(stored, "Zo\u{eb} \u{1f469}\u{200d}\u{1f4bb}");
}

fn verification_emails_are_limited_to_five_an_hour(db: TestDb) {
    let mut conn = db.conn();
    let me = fixtures::account(&mut conn, "spam-me@example.com");
    // Whole seconds: PostgreSQL keeps microseconds.
    let t0 = Utc::now().with_nanosecond(0).unwrap();
    for minute in 0..5 {
        verify::create_link(&mut conn, me.id, t0 + Duration::minutes(minute * 10)).unwrap();
    }
    let refused = verify::create_link(&mut conn, me.id, t0 + Duration::minutes(45));
    assert!(
        matches!(refused, Err(AuthError::TooManyVerificationEmails { retry_after_secs: 900 })),
        "until the first leaves the hour: {refused:?}"
    );
    assert_eq!(
        AuthError::TooManyVerificationEmails { retry_after_secs: 900 }.to_string(),
        "You have asked for 5 verification e-mails in the last hour. Please try again in 15 minute(s)."
    );
    verify::create_link(&mut conn, me.id, t0 + Duration::minutes(61)).unwrap();
    let other = fixtures::account(&mut conn, "other@example.com");
    verify::create_link(&mut conn, other.id, t0 + Duration::minutes(45)).unwrap();
}

fn an_account_is_established_once_verified_and_a_day_old(db: TestDb) {
    let mut conn = db.conn();
    let t0 = Utc::now();
    let fresh = fixtures::account(&mut conn, "fresh@example.com");
    assert!(!accounts::is_established(&mut conn, fresh.id, t0 + Duration::days(30)).unwrap(), "unverified");
    let verified = fixtures::verified_account(&mut conn, "verified@example.com", t0);
    assert!(!accounts::is_established(&mut conn, verified.id, t0 + Duration::hours(23)).unwrap(), "too new");
    assert!(accounts::is_established(&mut conn, verified.id, t0 + Duration::hours(24)).unwrap());
    assert!(!accounts::is_established(&mut conn, UserId(999_999), t0).unwrap(), "no such account");
}
