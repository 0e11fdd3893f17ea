//! An S3-compatible server on a loopback port for the media tests: moto's server (PyPI
//! `moto[server]`, installed by `.ci/run`), speaking the real S3 protocol, with one bucket.
//! The server under test reaches it through its production client (`object_store`), by
//! the same variables an operator sets.
//!
//! Without moto the tests that need it are skipped, saying so, unless
//! `SETUPIQ_REQUIRE_S3=1` (CI) makes its absence a failure.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub const BUCKET: &str = "setupiq-media";

pub struct S3StandIn {
    child: Child,
    addr: SocketAddr,
}

impl S3StandIn {
    /// Starts moto's server with an empty bucket; `None` (skipped) when moto is missing.
    pub async fn start() -> Option<Self> {
        let addr = TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).unwrap();
        let spawned = Command::new("python3")
            .args(["-m", "moto.server", "-H", "127.0.0.1", "-p", &addr.port().to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        let mut child = match spawned {
            Ok(child) => child,
            Err(e) => return skip(&format!("python3 cannot start: {e}")),
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        while TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_err() {
            if let Ok(Some(status)) = child.try_wait() {
                return skip(&format!("moto's server exited ({status}); is `moto[server]` installed?"));
            }
            assert!(Instant::now() < deadline, "moto's server did not listen on {addr} within 30 s");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let stand_in = Self { child, addr };
        // CreateBucket: moto accepts unsigned requests.
        let created = reqwest::Client::new().put(stand_in.bucket_url("")).send().await.unwrap();
        assert!(created.status().is_success(), "CreateBucket: {}", created.status());
        Some(stand_in)
    }

    pub fn endpoint(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The variables that point the server at this bucket, for `TestApp::start_with`.
    pub fn vars(&self) -> Vec<(&'static str, String)> {
        vec![
            ("SETUPIQ_OBJECT_STORE_URL", format!("s3://{BUCKET}")),
            ("AWS_ENDPOINT_URL", self.endpoint()),
            ("AWS_ACCESS_KEY_ID", "testing".to_owned()),
            ("AWS_SECRET_ACCESS_KEY", "testing".to_owned()),
            ("AWS_REGION", "us-east-1".to_owned()),
        ]
    }

    fn bucket_url(&self, query: &str) -> String {
        format!("{}/{BUCKET}{query}", self.endpoint())
    }

    /// The keys in the bucket, sorted (ListObjectsV2 read by hand: the test sees the bucket
    /// as S3 reports it, not through the client under test).
    pub async fn keys(&self) -> Vec<String> {
        let listing = reqwest::get(self.bucket_url("?list-type=2")).await.unwrap().text().await.unwrap();
        let mut keys: Vec<String> = listing
            .split("<Key>")
            .skip(1)
            .filter_map(|rest| rest.split_once("</Key>").map(|(key, _)| key.to_owned()))
            .collect();
        keys.sort();
        keys
    }

    /// Stops the server: the store is down from now on.
    pub fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for S3StandIn {
    fn drop(&mut self) {
        self.stop();
    }
}

fn skip(why: &str) -> Option<S3StandIn> {
    assert!(std::env::var("SETUPIQ_REQUIRE_S3").as_deref() != Ok("1"), "an S3 stand-in is required: {why}");
    eprintln!("SKIPPED (no S3 stand-in: {why})");
    None
}
