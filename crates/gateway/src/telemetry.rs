//! Logging with `tracing`, to stderr: stdout is the commands' own output (`setupiq analyze
//! --json` prints the result and nothing else, for a script to read). `RUST_LOG` sets the
//! level (default `info`, ONNX Runtime's own chatter from `warn`),
//! `SETUPIQ_LOG_FORMAT=json` switches to JSON lines.

use tracing_subscriber::EnvFilter;

/// The filter without `RUST_LOG`: ONNX Runtime (`ort`) reports every session it builds at
/// `info`, which says nothing an operator needs.
const DEFAULT_FILTER: &str = "info,ort=warn";

pub fn init(json: bool) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(DEFAULT_FILTER));
    let builder =
        tracing_subscriber::fmt().with_env_filter(filter).with_target(false).with_writer(std::io::stderr);
    // A second init (tests) is harmless; ignore it.
    let _ = if json { builder.json().try_init() } else { builder.try_init() };
}
