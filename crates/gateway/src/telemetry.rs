//! Logging with `tracing`: `RUST_LOG` sets the level (default `info`),
//! `SETUPIQ_LOG_FORMAT=json` switches to JSON lines.

use tracing_subscriber::EnvFilter;

pub fn init(json: bool) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_target(false);
    // A second init (tests) is harmless; ignore it.
    let _ = if json { builder.json().try_init() } else { builder.try_init() };
}
