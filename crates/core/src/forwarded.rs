//! The client's address behind reverse proxies (`SETUPIQ_TRUSTED_PROXIES`). Every per-address
//! limit (login throttle, trial cap, signup limits, contact form) keys on it, so it must not
//! be something a client can write: `Forwarded` and `X-Forwarded-For` are read only when the
//! TCP peer is a trusted proxy, and then from the right: each trusted hop is skipped and the
//! first address not in the list is the client (the leftmost entries are whatever the client
//! sent). Without trusted proxies, or from any other peer, the TCP peer is the client.

use std::net::IpAddr;

use ipnet::IpNet;

/// Parses `SETUPIQ_TRUSTED_PROXIES`: comma-separated CIDRs or single addresses
/// (`10.0.0.0/8, 127.0.0.1, ::1`). Answers the entry that is neither.
pub fn parse_trusted(raw: &str) -> Result<Vec<IpNet>, String> {
    raw.split(',')
        .map(str::trim)
        .filter(|entry| !entry.is_empty())
        .map(|entry| {
            entry
                .parse::<IpNet>()
                .or_else(|_| entry.parse::<IpAddr>().map(IpNet::from))
                .map_err(|_| format!("`{entry}` is not an IP address or a CIDR range"))
        })
        .collect()
}

/// The client's address: `peer` itself unless it is a trusted proxy; then the rightmost
/// untrusted address of `Forwarded` (if the request has one) or else `X-Forwarded-For`
/// (`headers`: every value of that header, in order). An entry that is not an address
/// (`unknown`, an obfuscated name) ends the walk at the last trusted hop.
pub fn client_ip(peer: IpAddr, forwarded: &[&str], x_forwarded_for: &[&str], trusted: &[IpNet]) -> IpAddr {
    let is_trusted = |ip: &IpAddr| trusted.iter().any(|net| net.contains(ip));
    if !is_trusted(&peer) {
        return peer;
    }
    let chain: Vec<Option<IpAddr>> = if forwarded.is_empty() {
        x_forwarded_for.iter().flat_map(|v| v.split(',')).map(|entry| parse_address(entry.trim())).collect()
    } else {
        forwarded.iter().flat_map(|v| v.split(',')).map(forwarded_for).collect()
    };
    let mut client = peer;
    for hop in chain.into_iter().rev() {
        match hop {
            Some(ip) if is_trusted(&ip) => client = ip,
            Some(ip) => return ip,
            None => return client,
        }
    }
    client
}

/// The `for=` address of one `Forwarded` element (`for=192.0.2.60;proto=https`).
fn forwarded_for(element: &str) -> Option<IpAddr> {
    element.split(';').find_map(|pair| {
        let (key, value) = pair.trim().split_once('=')?;
        key.trim().eq_ignore_ascii_case("for").then(|| parse_address(value.trim().trim_matches('"')))?
    })
}

/// `192.0.2.60`, `192.0.2.60:4711`, `2001:db8::1`, `[2001:db8::1]:4711`.
fn parse_address(raw: &str) -> Option<IpAddr> {
    if let Ok(ip) = raw.parse() {
        return Some(ip);
    }
    if let Some(rest) = raw.strip_prefix('[') {
        return rest.split_once(']').and_then(|(ip, _)| ip.parse().ok());
    }
    raw.rsplit_once(':').and_then(|(ip, port)| port.parse::<u16>().ok().and(ip.parse().ok()))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn ip(raw: &str) -> IpAddr {
        raw.parse().unwrap()
    }

    #[test]
    fn trusted_proxies_are_cidrs_or_addresses() {
        let nets = parse_trusted("10.0.0.0/8, 127.0.0.1 ,::1,").unwrap();
        assert_eq!(nets.len(), 3);
        assert!(nets[1].contains(&ip("127.0.0.1")) && !nets[1].contains(&ip("127.0.0.2")));
        assert!(parse_trusted("10.0.0.0/8, proxy.internal").unwrap_err().contains("proxy.internal"));
        assert!(parse_trusted("").unwrap().is_empty());
    }

    #[test]
    fn headers_count_only_from_a_trusted_peer() {
        let trusted = parse_trusted("10.0.0.0/8").unwrap();
        // A client writing its own header, straight to us: ignored.
        assert_eq!(client_ip(ip("198.51.100.7"), &[], &["1.2.3.4"], &trusted), ip("198.51.100.7"));
        // No trusted proxies configured: ignored.
        assert_eq!(client_ip(ip("10.0.0.2"), &[], &["1.2.3.4"], &[]), ip("10.0.0.2"));
        // Through the proxy: the address the proxy saw.
        assert_eq!(client_ip(ip("10.0.0.2"), &[], &["203.0.113.9"], &trusted), ip("203.0.113.9"));
    }

    #[test]
    fn the_rightmost_untrusted_hop_is_the_client() {
        let trusted = parse_trusted("10.0.0.0/8").unwrap();
        // The client sent a forged "1.2.3.4"; the proxy appended what it saw, then an inner hop.
        let xff = ["1.2.3.4, 203.0.113.9", "10.0.0.5"];
        assert_eq!(client_ip(ip("10.0.0.2"), &[], &xff, &trusted), ip("203.0.113.9"));
        // Only trusted hops: the leftmost of them.
        assert_eq!(client_ip(ip("10.0.0.2"), &[], &["10.1.1.1, 10.0.0.5"], &trusted), ip("10.1.1.1"));
        // An entry that is no address stops the walk at the last trusted hop.
        assert_eq!(client_ip(ip("10.0.0.2"), &[], &["203.0.113.9, unknown"], &trusted), ip("10.0.0.2"));
    }

    #[test]
    fn forwarded_wins_and_its_forms_are_read() {
        let trusted = parse_trusted("10.0.0.0/8").unwrap();
        let forwarded = [r#"for=1.2.3.4, for="[2001:db8:cafe::17]:4711";proto=https"#];
        assert_eq!(client_ip(ip("10.0.0.2"), &forwarded, &["5.6.7.8"], &trusted), ip("2001:db8:cafe::17"));
        assert_eq!(
            client_ip(ip("10.0.0.2"), &["for=198.51.100.3:8080;by=10.0.0.2"], &[], &trusted),
            ip("198.51.100.3")
        );
        assert_eq!(client_ip(ip("10.0.0.2"), &["for=_hidden"], &[], &trusted), ip("10.0.0.2"));
    }
}
