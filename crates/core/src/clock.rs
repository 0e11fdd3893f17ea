//! Time as a dependency: services take the current time from a [`Clock`] so tests can
//! move it (session expiry, reset-token expiry, throttling windows) without sleeping.

use std::sync::{Arc, Mutex};

use chrono::{DateTime, Duration, NaiveDateTime, Utc};

/// The UTC day `now` falls in, as `[start, end)`: the window of every daily cap.
pub fn utc_day(now: DateTime<Utc>) -> (NaiveDateTime, NaiveDateTime) {
    let start = now.date_naive().and_hms_opt(0, 0, 0).unwrap_or_else(|| now.naive_utc());
    (start, start + Duration::days(1))
}

pub trait Clock: Send + Sync + 'static {
    fn now(&self) -> DateTime<Utc>;
}

pub type SharedClock = Arc<dyn Clock>;

/// The wall clock.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}

/// A clock that only moves when told to; for tests.
#[derive(Debug)]
pub struct ManualClock {
    now: Mutex<DateTime<Utc>>,
}

impl ManualClock {
    pub fn new(start: DateTime<Utc>) -> Self {
        Self { now: Mutex::new(start) }
    }

    pub fn advance(&self, by: Duration) {
        let mut now = self.now.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        *now += by;
    }

    pub fn set(&self, to: DateTime<Utc>) {
        *self.now.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = to;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> DateTime<Utc> {
        *self.now.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

pub fn system() -> SharedClock {
    Arc::new(SystemClock)
}

/// Whole seconds from `now` until `until`, rounded up and at least 1: the value of a
/// `Retry-After` header (coming back a moment too early would only earn another 429).
pub fn retry_after_secs(until: DateTime<Utc>, now: DateTime<Utc>) -> u64 {
    let millis = u64::try_from((until - now).num_milliseconds()).unwrap_or(0);
    millis.div_ceil(1000).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_rounds_up() {
        let now = Utc::now();
        assert_eq!(retry_after_secs(now + Duration::milliseconds(599_001), now), 600);
        assert_eq!(retry_after_secs(now + Duration::seconds(600), now), 600);
        assert_eq!(retry_after_secs(now - Duration::seconds(5), now), 1);
    }
}
