//! Users for HTTP tests, built the way the product makes them:
//!
//! ```ignore
//! let gamer = app.user("gamer@example.com").credits(10).pro().with_analysis().sign_up().await;
//! gamer.post("/_api/analyze-setup", body).await; // a signed-in browser (derefs to TestClient)
//! assert_eq!(app.balance(gamer.id), 9);
//! ```
//!
//! [`UserBuilder::sign_up`] registers through the real endpoint (the signup bonus, the
//! session cookie and the username are the product's own), then sets what the test asked
//! for through the services: the balance through the ledger (so balance == sum of ledger
//! still holds), Pro, the admin role, saved analyses. [`UserBuilder::verified`] follows the
//! link of the sign-up e-mail first, as its owner would.

use std::ops::Deref;

use reqwest::StatusCode;
use setupiq_auth::service::accounts;
use setupiq_auth::service::ledger::{self, LedgerReason};
use setupiq_core::{AnalysisId, Clock, UserId};
use setupiq_db::write_transaction;

use crate::app::{TestApp, TestClient};
use crate::fixtures;

pub use crate::fixtures::FIXTURE_SETUP;

/// A signed-up user: their browser (signed in) and what the test needs to know.
pub struct TestUser {
    pub client: TestClient,
    pub id: UserId,
    pub email: String,
    pub password: String,
    /// The saved analyses [`UserBuilder::with_analysis`] made, oldest first.
    pub analysis_ids: Vec<AnalysisId>,
}

impl Deref for TestUser {
    type Target = TestClient;

    fn deref(&self) -> &TestClient {
        &self.client
    }
}

impl TestUser {
    /// Deletes the account from its browser, confirming with its password.
    pub async fn delete_account(&self) -> crate::TestResponse {
        self.post("/_api/auth/delete-account", serde_json::json!({ "currentPassword": self.password })).await
    }
}

/// What a test user should be; see the module docs.
#[must_use = "a user is only made by `.sign_up().await`"]
pub struct UserBuilder<'a> {
    app: &'a TestApp,
    email: String,
    display_name: String,
    password: String,
    credits: Option<i32>,
    pro: bool,
    admin: bool,
    verified: bool,
    /// The analyses to save, in order: `true` for a photo analysis.
    analyses: Vec<bool>,
}

impl TestApp {
    /// A new user with this e-mail: a plain account with the signup bonus unless told more.
    pub fn user(&self, email: &str) -> UserBuilder<'_> {
        UserBuilder {
            app: self,
            email: email.to_owned(),
            display_name: "Test Gamer".to_owned(),
            password: fixtures::PASSWORD.to_owned(),
            credits: None,
            pro: false,
            admin: false,
            verified: false,
            analyses: Vec::new(),
        }
    }

    /// Sets a user's balance with one ledger line, as any balance change is made.
    pub fn set_credits(&self, user_id: UserId, credits: i32) {
        let mut conn = self.db.conn();
        let now = self.clock.now();
        write_transaction(&mut conn, |conn| {
            let change = credits - ledger::balance(conn, user_id)?;
            if change != 0 {
                ledger::apply(conn, user_id, change, &LedgerReason::Spend("test fixture".into()), None, now)?;
            }
            Ok::<_, setupiq_auth::AuthError>(())
        })
        .unwrap();
    }

    /// A user's balance as stored.
    pub fn balance(&self, user_id: UserId) -> i32 {
        ledger::balance(&mut self.db.conn(), user_id).unwrap()
    }

    /// Panics unless the user's cached balance equals the sum of their ledger.
    pub fn assert_ledger_consistent(&self, user_id: UserId) {
        assert!(
            ledger::balance_matches_ledger(&mut self.db.conn(), user_id).unwrap(),
            "balance == sum of ledger"
        );
    }

    /// The token of the newest verification link e-mailed to `email`.
    pub fn verification_token(&self, email: &str) -> String {
        let email = email.trim().to_lowercase();
        let link = self
            .outbox()
            .iter()
            .rev()
            .filter(|mail| mail.to == email)
            .find_map(|mail| mail.line_with("/verify-email?token="))
            .unwrap_or_else(|| panic!("no verification e-mail to {email}"));
        link.rsplit_once("token=").map(|(_, token)| token.to_owned()).unwrap_or_default()
    }

    /// Follows the newest verification link e-mailed to `email` (in a browser of its own,
    /// as from a mail program); panics unless it verifies the address.
    pub async fn verify_email(&self, email: &str) {
        let token = self.verification_token(email);
        let res = self.client().post("/_api/auth/verify-email", serde_json::json!({ "token": token })).await;
        assert_eq!(res.status, StatusCode::OK, "verifying {email}: {}", res.text);
    }

    /// Saves an analysis of [`FIXTURE_SETUP`] for the user without taking a credit (as a
    /// delivered result is saved); returns its id.
    pub fn save_analysis(&self, user_id: UserId) -> AnalysisId {
        fixtures::analysis(&mut self.db.conn(), user_id, false, self.clock.now())
    }

    /// The same as a photo analysis (its image keys point at no file); returns its id.
    pub fn save_photo_analysis(&self, user_id: UserId) -> AnalysisId {
        fixtures::analysis(&mut self.db.conn(), user_id, true, self.clock.now())
    }
}

impl UserBuilder<'_> {
    pub fn named(mut self, display_name: &str) -> Self {
        display_name.clone_into(&mut self.display_name);
        self
    }

    pub fn password(mut self, password: &str) -> Self {
        password.clone_into(&mut self.password);
        self
    }

    /// The balance after sign-up (instead of the signup bonus).
    pub fn credits(mut self, credits: i32) -> Self {
        self.credits = Some(credits);
        self
    }

    pub fn pro(mut self) -> Self {
        self.pro = true;
        self
    }

    /// The admin role, granted as `setupiq admin grant EMAIL` does (whether or not the
    /// address is verified).
    pub fn admin(mut self) -> Self {
        self.admin = true;
        self
    }

    /// Follows the verification link from the sign-up e-mail, as its owner would, before
    /// anything else is set (an address in `SETUPIQ_ADMIN_EMAILS` becomes admin then).
    pub fn verified(mut self) -> Self {
        self.verified = true;
        self
    }

    /// One more saved analysis of a description (not charged).
    pub fn with_analysis(mut self) -> Self {
        self.analyses.push(false);
        self
    }

    /// One more saved photo analysis (not charged; its image keys point at no file).
    pub fn with_photo_analysis(mut self) -> Self {
        self.analyses.push(true);
        self
    }

    /// Registers through `POST /_api/auth/register_with_password` in a new browser, which
    /// stays signed in, then applies the rest.
    pub async fn sign_up(self) -> TestUser {
        let app = self.app;
        let client = app.client();
        let res = client.register(&self.email, &self.password, &self.display_name).await;
        assert_eq!(res.status, StatusCode::CREATED, "sign-up of {}: {}", self.email, res.text);
        let id = UserId(res.json()["user"]["id"].as_i64().unwrap());
        if self.verified {
            app.verify_email(&self.email).await;
        }
        if let Some(credits) = self.credits {
            app.set_credits(id, credits);
        }
        let now = app.clock.now();
        if self.pro {
            accounts::set_pro(&mut app.db.conn(), id, true, now).unwrap();
        }
        if self.admin {
            accounts::grant_admin(&mut app.db.conn(), &self.email, now).unwrap();
        }
        let analysis_ids = self
            .analyses
            .iter()
            .map(|photo| if *photo { app.save_photo_analysis(id) } else { app.save_analysis(id) })
            .collect();
        TestUser { client, id, email: self.email, password: self.password, analysis_ids }
    }
}
