//! Stripe webhook signatures, verified by hand (HMAC-SHA256, as Stripe documents it) rather
//! than through the generated webhook crate, whose event types would add a large build for a
//! check this small.
//!
//! Stripe sends `Stripe-Signature: t=1700000000,v1=<hex>,v1=<hex>,v0=<hex>`. The signed text is
//! `"{t}.{raw body}"`, so the body must be checked exactly as received: the same JSON with
//! other whitespace is a different message. Several `v1` entries are sent while a secret is
//! being rolled; any one of them may match. `v0` (test-mode legacy) and unknown keys are
//! ignored. A timestamp more than [`TOLERANCE_SECS`] away from now, in either direction, is
//! refused so that a captured request cannot be replayed later.

use chrono::{DateTime, Utc};
use hmac::{Hmac, Mac};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

/// How far (seconds) a signature's timestamp may be from the server clock.
pub const TOLERANCE_SECS: i64 = 300;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WebhookError {
    #[error("the Stripe-Signature header is missing")]
    MissingHeader,
    #[error("the webhook is malformed: expected a Stripe-Signature header `t=…,v1=…` and a JSON event")]
    Malformed,
    #[error("the webhook signature's timestamp is more than {TOLERANCE_SECS} seconds from now")]
    Stale,
    #[error("no v1 signature in the Stripe-Signature header matches the payload")]
    BadSignature,
}

/// Checks that `payload` (the raw request body) was signed with `secret` (the endpoint's
/// `whsec_…` secret) within [`TOLERANCE_SECS`] of `now`.
///
/// An empty `signature_header` counts as a missing one.
pub fn verify(
    payload: &[u8],
    signature_header: &str,
    secret: &str,
    now: DateTime<Utc>,
) -> Result<(), WebhookError> {
    let header = parse_header(signature_header)?;
    // Refuse an empty secret outright: anyone can compute an HMAC with an empty key.
    if secret.is_empty() {
        return Err(WebhookError::BadSignature);
    }
    let mac = signed_payload_mac(payload, secret, header.timestamp)?;
    // Each candidate is compared in constant time; the loop itself reveals only how many
    // v1 entries the sender put in the header.
    let matched = header
        .signatures
        .iter()
        .any(|candidate| hex::decode(candidate).is_ok_and(|bytes| mac.clone().verify_slice(&bytes).is_ok()));
    if !matched {
        return Err(WebhookError::BadSignature);
    }
    // As Stripe's own libraries do, the timestamp is judged only once the signature proved the
    // header authentic, so `Stale` always means "genuine but too old (or too new)".
    if (now.timestamp() - header.timestamp).abs() > TOLERANCE_SECS {
        return Err(WebhookError::Stale);
    }
    Ok(())
}

/// A `Stripe-Signature` header value for `payload`, as Stripe would send it at `timestamp`
/// (Unix seconds). Used by tests and the local Stripe stand-in.
pub fn sign(payload: &[u8], secret: &str, timestamp: i64) -> String {
    let signature = match signed_payload_mac(payload, secret, timestamp) {
        Ok(mac) => hex::encode(mac.finalize().into_bytes()),
        // HMAC accepts keys of any length, so this cannot happen; an empty signature would
        // simply never verify.
        Err(_) => String::new(),
    };
    format!("t={timestamp},v1={signature}")
}

struct SignatureHeader<'a> {
    timestamp: i64,
    signatures: Vec<&'a str>,
}

fn parse_header(value: &str) -> Result<SignatureHeader<'_>, WebhookError> {
    let value = value.trim();
    if value.is_empty() {
        return Err(WebhookError::MissingHeader);
    }
    let mut timestamp = None;
    let mut signatures = Vec::new();
    for item in value.split(',') {
        let Some((key, val)) = item.split_once('=') else {
            return Err(malformed("expected comma-separated key=value pairs"));
        };
        match key.trim() {
            "t" => {
                if timestamp.is_some() {
                    return Err(malformed("more than one timestamp"));
                }
                let parsed =
                    val.trim().parse::<i64>().map_err(|_| malformed("the timestamp is not a number"))?;
                timestamp = Some(parsed);
            }
            "v1" => signatures.push(val.trim()),
            // v0 (legacy test-mode scheme) and anything Stripe adds later.
            _ => {}
        }
    }
    let timestamp = timestamp.ok_or_else(|| malformed("no timestamp (t=)"))?;
    if signatures.is_empty() {
        return Err(malformed("no v1 signature"));
    }
    Ok(SignatureHeader { timestamp, signatures })
}

/// The reason stays in the debug log: the sender only learns that the header was unreadable.
fn malformed(reason: &'static str) -> WebhookError {
    tracing::debug!(reason, "malformed Stripe-Signature header");
    WebhookError::Malformed
}

fn signed_payload_mac(payload: &[u8], secret: &str, timestamp: i64) -> Result<HmacSha256, WebhookError> {
    let mut mac = HmacSha256::new_from_slice(secret.as_bytes()).map_err(|_| WebhookError::BadSignature)?;
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(payload);
    Ok(mac)
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    const SECRET: &str = "whsec_test_5f3c2a1b0e9d8c7b6a5f4e3d2c1b0a99";
    const BODY: &str = r#"{"id":"evt_1","object":"event","type":"payment_intent.succeeded","data":{"object":{"id":"pi_1","status":"succeeded"}}}"#;

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 3, 14, 9, 26, 53).single().unwrap()
    }

    #[test]
    fn accepts_a_valid_signature() {
        let header = sign(BODY.as_bytes(), SECRET, now().timestamp());
        assert_eq!(verify(BODY.as_bytes(), &header, SECRET, now()), Ok(()));
    }

    #[test]
    fn matches_stripes_documented_scheme() {
        // HMAC-SHA256 over "{t}.{body}" with the secret as the key, hex-encoded.
        let mut mac = HmacSha256::new_from_slice(SECRET.as_bytes()).unwrap();
        mac.update(format!("1773480413.{BODY}").as_bytes());
        let expected = hex::encode(mac.finalize().into_bytes());
        assert_eq!(sign(BODY.as_bytes(), SECRET, 1_773_480_413), format!("t=1773480413,v1={expected}"));
    }

    #[test]
    fn accepts_timestamps_at_the_edge_of_the_tolerance() {
        for offset in [-TOLERANCE_SECS, TOLERANCE_SECS] {
            let header = sign(BODY.as_bytes(), SECRET, now().timestamp() + offset);
            assert_eq!(verify(BODY.as_bytes(), &header, SECRET, now()), Ok(()), "offset {offset}");
        }
    }

    #[test]
    fn refuses_a_flipped_payload_byte() {
        let header = sign(BODY.as_bytes(), SECRET, now().timestamp());
        let mut tampered = BODY.as_bytes().to_vec();
        tampered[10] ^= 0x01;
        assert_eq!(verify(&tampered, &header, SECRET, now()), Err(WebhookError::BadSignature));
    }

    #[test]
    fn refuses_the_same_json_reserialised() {
        let header = sign(BODY.as_bytes(), SECRET, now().timestamp());
        let value: serde_json::Value = serde_json::from_str(BODY).unwrap();
        let pretty = serde_json::to_string_pretty(&value).unwrap();
        assert_eq!(serde_json::from_str::<serde_json::Value>(&pretty).unwrap(), value);
        assert_eq!(verify(pretty.as_bytes(), &header, SECRET, now()), Err(WebhookError::BadSignature));
    }

    #[test]
    fn refuses_stale_and_future_timestamps() {
        for offset in [-TOLERANCE_SECS - 1, TOLERANCE_SECS + 1, -86_400, 86_400] {
            let header = sign(BODY.as_bytes(), SECRET, now().timestamp() + offset);
            assert_eq!(
                verify(BODY.as_bytes(), &header, SECRET, now()),
                Err(WebhookError::Stale),
                "offset {offset}"
            );
        }
    }

    #[test]
    fn refuses_a_signature_made_with_another_secret() {
        let header = sign(BODY.as_bytes(), "whsec_someone_else", now().timestamp());
        assert_eq!(verify(BODY.as_bytes(), &header, SECRET, now()), Err(WebhookError::BadSignature));
    }

    #[test]
    fn refuses_an_empty_secret() {
        let header = sign(BODY.as_bytes(), "", now().timestamp());
        assert_eq!(verify(BODY.as_bytes(), &header, "", now()), Err(WebhookError::BadSignature));
    }

    #[test]
    fn refuses_a_missing_header() {
        for header in ["", "   "] {
            assert_eq!(verify(BODY.as_bytes(), header, SECRET, now()), Err(WebhookError::MissingHeader));
        }
    }

    #[test]
    fn refuses_garbled_headers() {
        let t = now().timestamp();
        let good = sign(BODY.as_bytes(), SECRET, t);
        let v1 = good.split_once(",v1=").unwrap().1;
        for header in [
            "garbage".to_owned(),
            format!("v1={v1}"),
            format!("t={t}"),
            format!("t={t},v0={v1}"),
            format!("t=soon,v1={v1}"),
            format!("t={t},t={t},v1={v1}"),
            format!("t={t};v1={v1}"),
        ] {
            assert!(
                verify(BODY.as_bytes(), &header, SECRET, now()) == Err(WebhookError::Malformed),
                "{header}"
            );
        }
    }

    #[test]
    fn refuses_signatures_that_are_not_hex_or_truncated() {
        let t = now().timestamp();
        let good = sign(BODY.as_bytes(), SECRET, t);
        let v1 = good.split_once(",v1=").unwrap().1;
        for header in
            [format!("t={t},v1=zz{}", &v1[2..]), format!("t={t},v1={}", &v1[..62]), format!("t={t},v1=")]
        {
            assert_eq!(
                verify(BODY.as_bytes(), &header, SECRET, now()),
                Err(WebhookError::BadSignature),
                "{header}"
            );
        }
    }

    #[test]
    fn accepts_any_matching_v1_and_ignores_v0_and_unknown_keys() {
        let t = now().timestamp();
        let good = sign(BODY.as_bytes(), SECRET, t);
        let v1 = good.split_once(",v1=").unwrap().1;
        let wrong = sign(BODY.as_bytes(), "whsec_old_secret", t);
        let old = wrong.split_once(",v1=").unwrap().1;
        let header = format!("t={t}, v1={old}, v1={v1}, v0=deadbeef, scheme=future");
        assert_eq!(verify(BODY.as_bytes(), &header, SECRET, now()), Ok(()));
    }

    #[test]
    fn errors_read_clearly() {
        assert_eq!(WebhookError::MissingHeader.to_string(), "the Stripe-Signature header is missing");
        assert_eq!(
            WebhookError::Malformed.to_string(),
            "the webhook is malformed: expected a Stripe-Signature header `t=…,v1=…` and a JSON event"
        );
        assert_eq!(
            WebhookError::Stale.to_string(),
            "the webhook signature's timestamp is more than 300 seconds from now"
        );
    }
}
