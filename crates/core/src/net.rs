//! The addresses a server-side request must never reach, and whether a URL a member gives
//! names one: the one set of SSRF rules, used by the admin's link checker on every hop and
//! by every URL the product stores to send visitors or its checker to (community gear).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use url::{Host, Url};

/// Whether the checker must never connect to `ip`: anything that is not a public unicast address.
///
/// IPv6 forms that embed an IPv4 address (IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible
/// `::a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are judged by the embedded address,
/// because the kernel or a gateway may deliver them to it. Teredo is refused outright since its
/// IPv4 endpoint is obfuscated. `allow_loopback` lifts the ban on loopback only (tests).
pub fn is_forbidden(ip: IpAddr, allow_loopback: bool) -> bool {
    match ip {
        IpAddr::V4(ip) => is_forbidden_v4(ip, allow_loopback),
        IpAddr::V6(ip) => is_forbidden_v6(ip, allow_loopback),
    }
}

fn is_forbidden_v4(ip: Ipv4Addr, allow_loopback: bool) -> bool {
    if ip.is_loopback() {
        return !allow_loopback;
    }
    let [a, b, c, _] = ip.octets();
    a == 0 // "this network", 0.0.0.0 included: Linux connects it to the local host
        || ip.is_private() // 10/8, 172.16/12, 192.168/16
        || ip.is_link_local() // 169.254/16: cloud metadata lives here
        || (a == 100 && (b & 0xc0) == 64) // shared address space 100.64/10 (carrier NAT)
        || (a == 192 && b == 0 && c == 0) // IETF protocol assignments 192.0.0/24
        || ip.is_documentation() // 192.0.2/24, 198.51.100/24, 203.0.113/24
        || (a == 198 && (b & 0xfe) == 18) // benchmarking 198.18/15
        || a >= 224 // multicast 224/4, reserved 240/4, broadcast 255.255.255.255
}

fn is_forbidden_v6(ip: Ipv6Addr, allow_loopback: bool) -> bool {
    // Before the embedded-IPv4 rule, which would read ::1 as 0.0.0.1.
    if ip.is_loopback() {
        return !allow_loopback;
    }
    if ip.is_unspecified() {
        return true;
    }
    if let Some(embedded) = embedded_ipv4(ip) {
        return is_forbidden_v4(embedded, allow_loopback);
    }
    let s = ip.segments();
    ip.is_multicast() // ff00::/8
        || (s[0] & 0xffc0) == 0xfe80 // link-local fe80::/10
        || (s[0] & 0xffc0) == 0xfec0 // deprecated site-local fec0::/10
        || (s[0] & 0xfe00) == 0xfc00 // unique local fc00::/7
        || (s[0] == 0x2001 && s[1] == 0x0db8) // documentation 2001:db8::/32
        || (s[0] == 0x2001 && s[1] == 0) // Teredo 2001::/32
        || (s[0] == 0x0064 && s[1] == 0xff9b && s[2] == 1) // local-use NAT64 64:ff9b:1::/48
        || (s[0] == 0x0100 && s[1..4] == [0, 0, 0]) // discard-only 100::/64
}

fn embedded_ipv4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    if let Some(mapped) = ip.to_ipv4_mapped() {
        return Some(mapped);
    }
    let s = ip.segments();
    let o = ip.octets();
    let low32 = Ipv4Addr::new(o[12], o[13], o[14], o[15]);
    if s[..6] == [0; 6] || s[..6] == [0x0064, 0xff9b, 0, 0, 0, 0] {
        // IPv4-compatible ::a.b.c.d, NAT64 64:ff9b::a.b.c.d
        return Some(low32);
    }
    if s[0] == 0x2002 {
        // 6to4: 2002:AABB:CCDD::/48 routes to a.b.c.d
        return Some(Ipv4Addr::new(o[2], o[3], o[4], o[5]));
    }
    None
}

/// `localhost` and its subdomains are loopback by definition (RFC 6761), whatever DNS says, and
/// `localhost.` with its trailing dot may not be in /etc/hosts, so the name itself is refused.
pub fn is_localhost_name(name: &str) -> bool {
    let name = name.strip_suffix('.').unwrap_or(name).to_ascii_lowercase();
    name == "localhost" || name.ends_with(".localhost")
}

/// Whether `url` may be stored to send visitors (and the link checker) to: `http:` or
/// `https:` with a host, no whitespace or control character anywhere (`java\tscript:`
/// included), at most `max_len` bytes, and a host that is neither a loopback name
/// (`localhost`) nor an IP address [`is_forbidden`] refuses (a private, loopback,
/// link-local or otherwise non-public address). A name is not resolved here: the checker
/// resolves it through its own resolver on every request.
pub fn is_public_web_url(url: &str, max_len: usize) -> bool {
    if url.len() > max_len || url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return false;
    }
    let Ok(parsed) = Url::parse(url) else { return false };
    if !matches!(parsed.scheme(), "http" | "https") {
        return false;
    }
    match parsed.host() {
        Some(Host::Domain(name)) => !name.is_empty() && !is_localhost_name(name),
        Some(Host::Ipv4(ip)) => !is_forbidden(IpAddr::V4(ip), false),
        Some(Host::Ipv6(ip)) => !is_forbidden(IpAddr::V6(ip), false),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::is_public_web_url;

    #[test]
    fn only_public_http_urls_are_stored() {
        for ok in ["https://www.amazon.com/dp/B0TEST", "http://shop.example.com/arm?x=1", "https://8.8.8.8/x"]
        {
            assert!(is_public_web_url(ok, 2048), "{ok}");
        }
        for bad in [
            "javascript:alert(1)",
            "java\tscript:alert(1)",
            "ftp://example.com/x",
            "data:text/html,hi",
            "https://",
            "http://localhost/admin",
            "http://api.localhost./x",
            "http://127.0.0.1/",
            "http://10.0.0.5/",
            "http://192.168.1.1/router",
            "http://172.16.0.1/",
            "http://169.254.169.254/latest/meta-data",
            "http://[::1]/",
            "http://[fe80::1]/",
            "http://[::ffff:10.0.0.1]/",
            "http://0.0.0.0/",
            "http://2130706433/",
            "https://example.com/a b",
        ] {
            assert!(!is_public_web_url(bad, 2048), "{bad:?}");
        }
        assert!(!is_public_web_url(&format!("https://e.com/{}", "a".repeat(2048)), 2048));
    }
}
