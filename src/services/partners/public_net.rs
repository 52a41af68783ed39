//! The public internet as webhooks see it: which addresses are on it, which host names cannot
//! be, and a resolver that answers only with public addresses, so that the address checked is
//! the address connected to.

use std::error::Error as StdError;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

use ipnet::{Ipv4Net, Ipv6Net};
use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use url::Host;

const fn v4(a: u8, b: u8, c: u8, d: u8, prefix: u8) -> Ipv4Net {
    Ipv4Net::new_assert(Ipv4Addr::new(a, b, c, d), prefix)
}

/// The IPv6 block whose first three groups are `a:b:c`.
const fn v6(a: u16, b: u16, c: u16, prefix: u8) -> Ipv6Net {
    Ipv6Net::new_assert(Ipv6Addr::new(a, b, c, 0, 0, 0, 0, 0), prefix)
}

/// IPv4 blocks no webhook may reach: every block of the IANA IPv4 Special-Purpose Address
/// Registry that is not globally reachable (whole, where only a few hosts in it are), and
/// multicast.
const NON_PUBLIC_V4: [Ipv4Net; 15] = [
    v4(0, 0, 0, 0, 8),       // "this network" (RFC 791)
    v4(10, 0, 0, 0, 8),      // private (RFC 1918)
    v4(100, 64, 0, 0, 10),   // shared address space of carrier-grade NAT (RFC 6598)
    v4(127, 0, 0, 0, 8),     // loopback (RFC 1122)
    v4(169, 254, 0, 0, 16),  // link-local, where cloud metadata services answer (RFC 3927)
    v4(172, 16, 0, 0, 12),   // private (RFC 1918)
    v4(192, 0, 0, 0, 24),    // IETF protocol assignments (RFC 6890)
    v4(192, 0, 2, 0, 24),    // documentation, TEST-NET-1 (RFC 5737)
    v4(192, 88, 99, 0, 24),  // 6to4 relay anycast, deprecated (RFC 7526)
    v4(192, 168, 0, 0, 16),  // private (RFC 1918)
    v4(198, 18, 0, 0, 15),   // benchmarking (RFC 2544)
    v4(198, 51, 100, 0, 24), // documentation, TEST-NET-2 (RFC 5737)
    v4(203, 0, 113, 0, 24),  // documentation, TEST-NET-3 (RFC 5737)
    v4(224, 0, 0, 0, 4),     // multicast (RFC 5771)
    v4(240, 0, 0, 0, 4),     // reserved, with the broadcast 255.255.255.255 (RFC 1112, 919)
];

/// IPv6 blocks no webhook may reach: every block of the IANA IPv6 Special-Purpose Address
/// Registry that is not globally reachable, and the deprecated and multicast ones. (The
/// IPv4-mapped, NAT64 and 6to4 blocks are judged by the IPv4 address they carry.)
const NON_PUBLIC_V6: [Ipv6Net; 11] = [
    // `::` unspecified, `::1` loopback and the deprecated IPv4-compatible `::a.b.c.d`, which
    // no host uses any more (RFC 4291 §2.5.5.1): refused whole, whatever IPv4 they carry.
    v6(0, 0, 0, 96),
    v6(0x64, 0xff9b, 1, 48), // local-use NAT64 (RFC 8215): its gateways are the site's own
    v6(0x100, 0, 0, 64),     // discard-only (RFC 6666)
    v6(0x2001, 0, 0, 23),    // IETF protocol assignments: Teredo, ORCHID … (RFC 2928)
    v6(0x2001, 0xdb8, 0, 32), // documentation (RFC 3849)
    v6(0x3fff, 0, 0, 20),    // documentation (RFC 9637)
    v6(0x5f00, 0, 0, 16),    // segment routing SIDs (RFC 9602)
    v6(0xfc00, 0, 0, 7),     // unique local (RFC 4193)
    v6(0xfe80, 0, 0, 10),    // link-local (RFC 4291)
    v6(0xfec0, 0, 0, 10),    // site-local, deprecated (RFC 3879)
    v6(0xff00, 0, 0, 8),     // multicast (RFC 4291)
];

/// Global unicast: outside it no IPv6 address is assigned for the public internet.
const GLOBAL_UNICAST: Ipv6Net = v6(0x2000, 0, 0, 3);
/// NAT64's well-known prefix (RFC 6052): `64:ff9b::a.b.c.d` is the IPv4 host a.b.c.d.
const NAT64: Ipv6Net = v6(0x64, 0xff9b, 0, 96);
/// 6to4 (RFC 3056): `2002:aabb:ccdd::/48` is the site behind the IPv4 host aa.bb.cc.dd.
const SIX_TO_FOUR: Ipv6Net = v6(0x2002, 0, 0, 16);

/// Special-use names that never leave the machine or the site: `localhost` (RFC 6761), mDNS's
/// `local` (RFC 6762), `home.arpa` (RFC 8375) and ICANN's private-use `internal`.
const LOCAL_NAMES: [&str; 4] = ["localhost", "local", "home.arpa", "internal"];

/// Whether `ip` is on the public internet: in no block above, and for an IPv6 address that
/// carries an IPv4 one, that IPv4 address is public (the connection ends at it).
pub fn is_public_ip(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => !NON_PUBLIC_V4.iter().any(|block| block.contains(&v4)),
        IpAddr::V6(v6) => match embedded_ipv4(v6) {
            Some(v4) => is_public_ip(IpAddr::V4(v4)),
            None => {
                GLOBAL_UNICAST.contains(&v6)
                    && !NON_PUBLIC_V6.iter().any(|block| block.contains(&v6))
            }
        },
    }
}

/// The IPv4 host an IPv6 address leads to: IPv4-mapped `::ffff:a.b.c.d`, NAT64 and 6to4.
fn embedded_ipv4(v6: Ipv6Addr) -> Option<Ipv4Addr> {
    let [_, s1, s2, _, _, _, s6, s7] = v6.segments();
    let from_groups =
        |high: u16, low: u16| Ipv4Addr::from((u32::from(high) << 16) | u32::from(low));
    if let Some(mapped) = v6.to_ipv4_mapped() {
        Some(mapped)
    } else if NAT64.contains(&v6) {
        Some(from_groups(s6, s7))
    } else if SIX_TO_FOUR.contains(&v6) {
        Some(from_groups(s1, s2))
    } else {
        None
    }
}

/// Whether a URL's host can be on the public internet. The `url` crate (WHATWG) has already
/// read the numeric forms (`2130706433`, `0x7f.1`, `127.1`, `127.0.0.1.`) as the addresses
/// they are and turned internationalised names into punycode, so only its result is judged.
pub fn is_public_host<S: AsRef<str>>(host: &Host<S>) -> bool {
    match host {
        Host::Ipv4(v4) => is_public_ip(IpAddr::V4(*v4)),
        Host::Ipv6(v6) => is_public_ip(IpAddr::V6(*v6)),
        Host::Domain(name) => is_public_name(name.as_ref()),
    }
}

/// A fully qualified name outside the local special-use ones. A name without a dot is refused
/// too: resolvers complete it with the server's own search domains.
fn is_public_name(name: &str) -> bool {
    // One trailing dot only says the name is fully qualified: `localhost.` is `localhost`.
    let name = name.strip_suffix('.').unwrap_or(name).to_ascii_lowercase();
    let labels: Vec<&str> = name.split('.').collect();
    let local = LOCAL_NAMES
        .iter()
        .any(|local| name == *local || name.ends_with(&format!(".{local}")));
    labels.len() >= 2 && labels.iter().all(|label| !label.is_empty()) && !local
}

/// The operating system's resolver (`getaddrinfo`, as reqwest's default one).
pub struct SystemResolver;

impl Resolve for SystemResolver {
    fn resolve(&self, name: Name) -> Resolving {
        Box::pin(async move {
            let found: Vec<SocketAddr> =
                tokio::net::lookup_host((name.as_str(), 0)).await?.collect();
            Ok(Box::new(found.into_iter()) as Addrs)
        })
    }
}

/// Why a name was not resolved for a webhook.
#[derive(Debug, thiserror::Error)]
#[error("{host} resolves to an address that is not public")]
pub struct NotPublic {
    host: String,
}

/// Resolves with `inner` and answers only if every address found is public. reqwest connects
/// to what this answers, so the address checked is the address connected to, at every new
/// connection: there is no second lookup that DNS rebinding could answer differently.
pub struct PublicOnly {
    inner: Arc<dyn Resolve>,
}

impl PublicOnly {
    pub fn new(inner: Arc<dyn Resolve>) -> PublicOnly {
        PublicOnly { inner }
    }
}

impl Resolve for PublicOnly {
    fn resolve(&self, name: Name) -> Resolving {
        let host = name.as_str().to_owned();
        let lookup = self.inner.resolve(name);
        Box::pin(async move {
            let found: Vec<SocketAddr> = lookup.await?.collect();
            if !found.iter().all(|address| is_public_ip(address.ip())) {
                return Err(Box::new(NotPublic { host }) as Box<dyn StdError + Send + Sync>);
            }
            Ok(Box::new(found.into_iter()) as Addrs)
        })
    }
}

/// Whether a request failed because `PublicOnly` refused its host.
pub fn refused_as_not_public(error: &reqwest::Error) -> bool {
    let mut cause = error.source();
    while let Some(inner) = cause {
        if inner.is::<NotPublic>() {
            return true;
        }
        cause = inner.source();
    }
    false
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    fn public(ip: &str) -> bool {
        is_public_ip(ip.parse().expect(ip))
    }

    #[test]
    fn public_addresses_are_public() {
        for ip in [
            "8.8.8.8",
            "1.1.1.1",
            "192.0.3.1",
            "100.63.255.255",
            "100.128.0.0",
            "172.32.0.1",
            "198.20.0.1",
            "223.255.255.255",
            "2606:4700:4700::1111",
            "2a00:1450:4001:800::200e",
            "::ffff:8.8.8.8",
            "64:ff9b::808:808",
            "2002:808:808::1",
        ] {
            assert!(public(ip), "{ip}");
        }
    }

    #[test]
    fn every_special_purpose_ipv4_block_is_refused_from_its_first_to_its_last_address() {
        for block in NON_PUBLIC_V4 {
            for ip in [block.network(), block.broadcast()] {
                assert!(!is_public_ip(IpAddr::V4(ip)), "{ip} in {block}");
            }
        }
        for ip in [
            "0.0.0.0",
            "10.1.2.3",
            "100.64.0.1",
            "127.0.0.1",
            "127.255.255.254",
            "169.254.169.254",
            "172.16.5.4",
            "172.31.255.255",
            "192.0.0.1",
            "192.0.0.170",
            "192.0.2.1",
            "192.88.99.1",
            "192.168.1.1",
            "198.18.0.1",
            "198.19.255.255",
            "198.51.100.7",
            "203.0.113.9",
            "224.0.0.1",
            "239.255.255.250",
            "240.0.0.1",
            "255.255.255.255",
        ] {
            assert!(!public(ip), "{ip}");
        }
    }

    #[test]
    fn every_special_purpose_ipv6_block_is_refused() {
        for block in NON_PUBLIC_V6 {
            for ip in [block.network(), block.broadcast()] {
                assert!(!is_public_ip(IpAddr::V6(ip)), "{ip} in {block}");
            }
        }
        for ip in [
            "::",
            "::1",
            "100::1",
            "2001::1",
            "2001:0:4136:e378:8000:63bf:3fff:fdd2",
            "2001:db8::1",
            "3fff::1",
            "5f00::1",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "fec0::1",
            "ff02::1",
            "4000::1",
        ] {
            assert!(!public(ip), "{ip}");
        }
    }

    #[test]
    fn ipv6_addresses_carrying_a_private_ipv4_one_are_refused() {
        for ip in [
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "::ffff:169.254.169.254",
            "64:ff9b::7f00:1",
            "64:ff9b::a00:1",
            "64:ff9b::c000:1",
            "2002:7f00:1::1",
            "2002:a9fe:a9fe::",
            "2002:c0a8:101::1",
            // IPv4-compatible and local-use NAT64: refused whatever they carry.
            "::127.0.0.1",
            "::8.8.8.8",
            "64:ff9b:1::808:808",
        ] {
            assert!(!public(ip), "{ip}");
        }
    }

    fn host_of(url: &str) -> Host<String> {
        reqwest::Url::parse(url)
            .expect(url)
            .host()
            .expect("a host")
            .to_owned()
    }

    fn public_url(url: &str) -> bool {
        is_public_host(&host_of(url))
    }

    #[test]
    fn numeric_host_forms_are_read_as_the_addresses_they_are() {
        for (url, loopback) in [
            ("http://2130706433/", "127.0.0.1"),
            ("http://0x7f000001/", "127.0.0.1"),
            ("http://0x7f.1/", "127.0.0.1"),
            ("http://0177.0.0.1/", "127.0.0.1"),
            ("http://127.1/", "127.0.0.1"),
            ("http://127.0.0.1./", "127.0.0.1"),
            ("http://[::ffff:127.0.0.1]/", "::ffff:7f00:1"),
        ] {
            assert_eq!(
                host_of(url).to_string().trim_matches(['[', ']']),
                loopback,
                "{url}"
            );
            assert!(!public_url(url), "{url}");
        }
        assert!(public_url("http://134744072/"), "8.8.8.8");
    }

    #[test]
    fn local_names_are_refused_with_or_without_the_trailing_dot() {
        for url in [
            "http://localhost/",
            "http://localhost./",
            "http://LOCALHOST./",
            "http://api.localhost/",
            "http://printer.local/",
            "http://nas.home.arpa./",
            "http://db.internal/",
            "http://intranet/",
            "http://intranet./",
            "http://[64:ff9b::7f00:1]/",
            "http://[::127.0.0.1]/",
            "http://192.0.0.1/",
        ] {
            assert!(!public_url(url), "{url}");
        }
        for url in [
            "https://partner.example/hook",
            "https://partner.example./hook",
            "https://xn--mnchen-3ya.de/",
            "https://münchen.de/",
        ] {
            assert!(public_url(url), "{url}");
        }
    }

    /// Answers each lookup with the next of `answers` (the last one again when they run out).
    struct Scripted {
        answers: Mutex<Vec<Vec<SocketAddr>>>,
    }

    impl Scripted {
        fn new(answers: &[&[&str]]) -> Arc<Scripted> {
            let answers = answers
                .iter()
                .rev()
                .map(|ips| {
                    ips.iter()
                        .map(|ip| SocketAddr::new(ip.parse().expect(ip), 0))
                        .collect()
                })
                .collect();
            Arc::new(Scripted {
                answers: Mutex::new(answers),
            })
        }
    }

    impl Resolve for Scripted {
        fn resolve(&self, _: Name) -> Resolving {
            let mut answers = self.answers.lock().expect("lock");
            let next = if answers.len() > 1 {
                answers.pop().unwrap_or_default()
            } else {
                answers.last().cloned().unwrap_or_default()
            };
            Box::pin(async move { Ok(Box::new(next.into_iter()) as Addrs) })
        }
    }

    async fn resolve(resolver: &PublicOnly, name: &str) -> Result<Vec<SocketAddr>, String> {
        resolver
            .resolve(name.parse().expect("a name"))
            .await
            .map(Iterator::collect)
            .map_err(|e| e.to_string())
    }

    #[tokio::test]
    async fn a_name_is_answered_only_when_every_address_is_public() {
        let resolver = PublicOnly::new(Scripted::new(&[&["8.8.8.8", "2606:4700::1"]]));
        assert_eq!(
            resolve(&resolver, "hook.example").await.map(|a| a.len()),
            Ok(2)
        );
        for private in [
            &["127.0.0.1"][..],
            &["8.8.8.8", "10.0.0.1"],
            &["64:ff9b::7f00:1"],
            &["::127.0.0.1"],
        ] {
            let resolver = PublicOnly::new(Scripted::new(&[private]));
            assert_eq!(
                resolve(&resolver, "hook.example").await,
                Err("hook.example resolves to an address that is not public".into()),
                "{private:?}"
            );
        }
    }

    #[tokio::test]
    async fn every_lookup_is_checked_so_a_rebound_name_is_refused() {
        let resolver = PublicOnly::new(Scripted::new(&[&["8.8.8.8"], &["127.0.0.1"]]));
        assert!(resolve(&resolver, "rebind.example").await.is_ok());
        assert!(resolve(&resolver, "rebind.example").await.is_err());
    }
}
