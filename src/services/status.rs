//! The status page, measured rather than written (spec/accounts-and-pages.md §2.6, §3, §4.3):
//! the server checks its own parts (the API, the database, order processing, mail delivery,
//! each liquidity provider), stores every check so uptime is computed from history, derives
//! each network's state from the maintenance flags and the confirmation times it observed, and
//! lists the incidents the operator recorded.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::domain::currency::Catalogue;
use crate::domain::fees::RateType;
use crate::providers::LiquidityProvider;
use crate::services::availability::CurrencySwitches;
use crate::store::{AuditEntry, DynStore, Incident, IncidentUpdate, StatusCheck, StoreError};

pub const OPERATIONAL: &str = "operational";
pub const DEGRADED: &str = "degraded";
pub const OUTAGE: &str = "outage";

/// How far back uptime is computed.
const UPTIME_WINDOW: i64 = 30 * 24 * 3600;
/// Checks older than this are deleted.
const RETENTION: i64 = 90 * 24 * 3600;
/// A provider that takes longer than this to quote is slow; past the timeout it is down.
const PROVIDER_SLOW: Duration = Duration::from_secs(2);
const PROVIDER_TIMEOUT: Duration = Duration::from_secs(5);
/// Order steps overdue by this much mean the worker lags.
const ORDER_LAG_DEGRADED: i64 = 60;
const ORDER_LAG_OUTAGE: i64 = 300;
/// Mail waiting this long means delivery is stuck.
const MAIL_WAIT_DEGRADED: i64 = 10 * 60;
const MAIL_WAIT_OUTAGE: i64 = 60 * 60;
/// A report is reused for this long, so a busy status page does not hammer the probes.
const REPORT_TTL: Duration = Duration::from_secs(5);

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Service {
    /// `api`, `database`, `orders`, `mail`, or `provider:<name>`.
    pub key: String,
    pub name: String,
    pub status: &'static str,
    pub latency_ms: Option<i64>,
    /// Percent of checks in the last 30 days that found it operational; `None` before the
    /// first stored check.
    pub uptime: Option<f64>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Network {
    pub code: String,
    pub name: String,
    pub status: &'static str,
    /// Typical seconds between blocks, where known.
    #[serde(rename = "blockTime")]
    pub block_time: Option<f64>,
    /// `low`, `medium` or `high` from recent confirmation times; `None` without recent deposits.
    pub congestion: Option<&'static str>,
    /// Median seconds from deposit seen to confirmed, over the last day.
    pub confirmation_seconds: Option<i64>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct IncidentView {
    pub id: String,
    pub date: i64,
    pub title: String,
    pub description: String,
    pub status: String,
    pub updates: Vec<UpdateView>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct UpdateView {
    pub time: i64,
    pub status: String,
    pub message: String,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct StatusReport {
    pub status: &'static str,
    pub checked_at: i64,
    pub services: Vec<Service>,
    pub networks: Vec<Network>,
    pub incidents: Vec<IncidentView>,
}

pub struct StatusService {
    store: DynStore,
    catalogue: &'static Catalogue,
    provider: Arc<dyn LiquidityProvider>,
    switches: CurrencySwitches,
    /// Seconds between recorded checks (for uptime: missing checks count as down time).
    interval: i64,
    cached: Mutex<Option<(Instant, StatusReport)>>,
}

#[derive(Debug, thiserror::Error)]
pub enum IncidentError {
    #[error("{0}")]
    Invalid(&'static str),
    #[error("no incident {0}")]
    NotFound(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

pub const INCIDENT_STATUSES: [&str; 4] = ["investigating", "identified", "monitoring", "resolved"];

impl StatusService {
    pub fn new(
        store: DynStore,
        catalogue: &'static Catalogue,
        provider: Arc<dyn LiquidityProvider>,
        switches: CurrencySwitches,
        interval_seconds: u64,
    ) -> StatusService {
        StatusService {
            store,
            catalogue,
            provider,
            switches,
            interval: i64::try_from(interval_seconds).unwrap_or(60).max(1),
            cached: Mutex::new(None),
        }
    }

    /// Checks every component now.
    pub async fn probe(&self, now: i64) -> Vec<(String, String, &'static str, Option<i64>)> {
        let mut checks = vec![(
            "api".to_owned(),
            "Website and API".to_owned(),
            OPERATIONAL,
            None,
        )];

        let started = Instant::now();
        let database = match self.store.ping().await {
            Ok(()) if started.elapsed() > Duration::from_secs(1) => DEGRADED,
            Ok(()) => OPERATIONAL,
            Err(_) => OUTAGE,
        };
        checks.push((
            "database".into(),
            "Database".into(),
            database,
            Some(millis(started.elapsed())),
        ));

        let lag = match self.store.oldest_due_step(now).await {
            Ok(Some(due)) => Some(now - due),
            Ok(None) => Some(0),
            Err(_) => None,
        };
        let orders = match lag {
            None => OUTAGE,
            Some(lag) if lag >= ORDER_LAG_OUTAGE => OUTAGE,
            Some(lag) if lag >= ORDER_LAG_DEGRADED => DEGRADED,
            Some(_) => OPERATIONAL,
        };
        checks.push((
            "orders".into(),
            "Order processing".into(),
            orders,
            lag.map(|s| s * 1000),
        ));

        let waiting = match self.store.oldest_unsent_mail().await {
            Ok(Some(queued)) => Some(now - queued),
            Ok(None) => Some(0),
            Err(_) => None,
        };
        let mail = match waiting {
            None => OUTAGE,
            Some(w) if w >= MAIL_WAIT_OUTAGE => OUTAGE,
            Some(w) if w >= MAIL_WAIT_DEGRADED => DEGRADED,
            Some(_) => OPERATIONAL,
        };
        checks.push(("mail".into(), "Email delivery".into(), mail, None));

        let mut providers = self.provider.members();
        if providers.is_empty() {
            providers.push(self.provider.clone());
        }
        let probes = futures_util::future::join_all(
            providers
                .iter()
                .map(|p| probe_provider(self.catalogue, p.as_ref())),
        )
        .await;
        for (provider, (status, latency)) in providers.iter().zip(probes) {
            checks.push((
                format!("provider:{}", provider.name()),
                format!("Liquidity provider: {}", provider_label(provider.name())),
                status,
                latency,
            ));
        }
        checks
    }

    /// Probes and stores the result (the worker calls this every interval).
    pub async fn record(&self, now: i64) -> Result<(), StoreError> {
        let checks: Vec<StatusCheck> = self
            .probe(now)
            .await
            .into_iter()
            .map(|(component, _, status, latency_ms)| StatusCheck {
                component,
                status: status.to_owned(),
                latency_ms,
                checked_at: now,
                slot: now - now.rem_euclid(self.interval),
            })
            .collect();
        self.store.record_status_checks(&checks).await?;
        self.store.prune_status_checks(now - RETENTION).await
    }

    /// What the status page shows: a fresh probe, uptime from the stored checks, the
    /// networks and the incidents.
    pub async fn report(&self, now: i64) -> Result<StatusReport, StoreError> {
        if let Some((at, report)) = self.cached.lock().expect("status cache").as_ref()
            && at.elapsed() < REPORT_TTL
        {
            return Ok(report.clone());
        }
        let tallies: BTreeMap<String, _> = self
            .store
            .tally_status_checks(now - UPTIME_WINDOW)
            .await?
            .into_iter()
            .map(|t| (t.component.clone(), t))
            .collect();
        let services: Vec<Service> = self
            .probe(now)
            .await
            .into_iter()
            .map(|(key, name, status, latency_ms)| {
                let uptime = tallies.get(&key).map(|t| {
                    // Checks that should have happened but did not (the server was down)
                    // count against uptime.
                    let expected = (now - t.first_at) / self.interval + 1;
                    let total = t.total.max(expected).max(1);
                    (t.operational as f64 * 10_000.0 / total as f64).round() / 100.0
                });
                Service {
                    key,
                    name,
                    status,
                    latency_ms,
                    uptime,
                }
            })
            .collect();
        let networks = self.networks(now).await?;
        let incidents = self
            .store
            .incidents(20)
            .await?
            .into_iter()
            .map(incident_view)
            .collect();
        let report = StatusReport {
            status: overall(&services),
            checked_at: now,
            services,
            networks,
            incidents,
        };
        *self.cached.lock().expect("status cache") = Some((Instant::now(), report.clone()));
        Ok(report)
    }

    async fn networks(&self, now: i64) -> Result<Vec<Network>, StoreError> {
        let recent = self.store.confirmation_times(now - 24 * 3600).await?;
        let week = self.store.confirmation_times(now - 7 * 24 * 3600).await?;
        let mut by_network: BTreeMap<String, Network> = BTreeMap::new();
        let mut paused: BTreeMap<String, (usize, usize)> = BTreeMap::new();
        for currency in self.catalogue.all() {
            let state = self.switches.state(self.provider.as_ref(), currency);
            let entry = paused.entry(currency.network.clone()).or_default();
            entry.0 += 1;
            if !state.send || !state.recv {
                entry.1 += 1;
            }
            by_network
                .entry(currency.network.clone())
                .or_insert_with(|| Network {
                    code: currency.network.clone(),
                    name: currency.network_name.clone(),
                    status: OPERATIONAL,
                    block_time: block_time(&currency.network),
                    congestion: None,
                    confirmation_seconds: None,
                });
        }
        let network_of = |code: &str| self.catalogue.get(code).map(|c| c.network.clone());
        let seconds_by_network = |samples: &[(String, i64)]| {
            let mut map: BTreeMap<String, Vec<i64>> = BTreeMap::new();
            for (code, seconds) in samples {
                if let Some(network) = network_of(code) {
                    map.entry(network).or_default().push(*seconds);
                }
            }
            map
        };
        let recent = seconds_by_network(&recent);
        let week = seconds_by_network(&week);
        for (code, network) in by_network.iter_mut() {
            if let Some(&(total, down)) = paused.get(code) {
                network.status = if down == 0 {
                    OPERATIONAL
                } else if down == total {
                    OUTAGE
                } else {
                    DEGRADED
                };
            }
            if let Some(samples) = recent.get(code) {
                let current = median(samples);
                let usual = week.get(code).map(|w| median(w)).unwrap_or(current);
                network.confirmation_seconds = Some(current);
                network.congestion = Some(congestion(current, usual));
                if network.congestion == Some("high") && network.status == OPERATIONAL {
                    network.status = "congested";
                }
            }
        }
        // As people look for them: by name, not by code (Cardano is ADA).
        let mut networks: Vec<Network> = by_network.into_values().collect();
        networks.sort_by_cached_key(|n| n.name.to_lowercase());
        Ok(networks)
    }

    /// Opens an incident (`ferry admin incident open`).
    /// Opens an incident, with the audit entry of who did; its id and the entry's.
    pub async fn open_incident(
        &self,
        title: &str,
        description: &str,
        now: i64,
        audit: AuditEntry,
    ) -> Result<(String, i64), IncidentError> {
        let title = title.trim();
        if title.is_empty() || title.chars().count() > 200 {
            return Err(IncidentError::Invalid("a title of 1 to 200 characters"));
        }
        let id = format!("inc-{}", &uuid::Uuid::new_v4().simple().to_string()[..8]);
        let audit = AuditEntry {
            subject_id: id.clone(),
            ..audit
        };
        let audit_id = self
            .store
            .insert_incident(
                &Incident {
                    id: id.clone(),
                    title: title.to_owned(),
                    description: description.trim().to_owned(),
                    status: "investigating".into(),
                    created_at: now,
                    updated_at: now,
                    updates: vec![IncidentUpdate {
                        status: "investigating".into(),
                        message: description.trim().to_owned(),
                        created_at: now,
                    }],
                },
                &audit,
            )
            .await?;
        self.forget_report();
        Ok((id, audit_id))
    }

    /// Posts an update (`ferry admin incident update`), possibly resolving it.
    /// With the audit entry of who did; the entry's id.
    pub async fn update_incident(
        &self,
        id: &str,
        status: &str,
        message: &str,
        now: i64,
        audit: &AuditEntry,
    ) -> Result<i64, IncidentError> {
        if !INCIDENT_STATUSES.contains(&status) {
            return Err(IncidentError::Invalid(
                "a status: investigating, identified, monitoring or resolved",
            ));
        }
        let update = IncidentUpdate {
            status: status.to_owned(),
            message: message.trim().to_owned(),
            created_at: now,
        };
        let audit_id = self
            .store
            .update_incident(id, &update, audit)
            .await?
            .ok_or_else(|| IncidentError::NotFound(id.to_owned()))?;
        self.forget_report();
        Ok(audit_id)
    }

    pub async fn incidents(&self) -> Result<Vec<Incident>, StoreError> {
        self.store.incidents(100).await
    }

    fn forget_report(&self) {
        *self.cached.lock().expect("status cache") = None;
    }
}

fn millis(elapsed: Duration) -> i64 {
    i64::try_from(elapsed.as_millis()).unwrap_or(i64::MAX)
}

/// A quote for the most liquid pair, timed.
async fn probe_provider(
    catalogue: &Catalogue,
    provider: &dyn LiquidityProvider,
) -> (&'static str, Option<i64>) {
    let (Some(from), Some(to)) = (catalogue.get("BTC"), catalogue.get("ETH")) else {
        return (OPERATIONAL, None);
    };
    let started = Instant::now();
    match tokio::time::timeout(PROVIDER_TIMEOUT, provider.market(from, to, RateType::Float)).await {
        Ok(Ok(_)) if started.elapsed() > PROVIDER_SLOW => {
            (DEGRADED, Some(millis(started.elapsed())))
        }
        Ok(Ok(_)) => (OPERATIONAL, Some(millis(started.elapsed()))),
        Ok(Err(_)) | Err(_) => (OUTAGE, Some(millis(started.elapsed()))),
    }
}

fn provider_label(name: &str) -> String {
    if name == "fixedfloat" {
        return "FixedFloat".into();
    }
    let mut chars = name.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// The worst state of the services; the site is down when it cannot quote at all.
fn overall(services: &[Service]) -> &'static str {
    let down = |s: &&Service| s.status == OUTAGE;
    let providers: Vec<&Service> = services
        .iter()
        .filter(|s| s.key.starts_with("provider:"))
        .collect();
    let all_providers_down = !providers.is_empty() && providers.iter().all(down);
    let core_down = services
        .iter()
        .filter(|s| matches!(s.key.as_str(), "api" | "database"))
        .any(|s| s.status == OUTAGE);
    if all_providers_down || core_down {
        OUTAGE
    } else if services.iter().any(|s| s.status != OPERATIONAL) {
        DEGRADED
    } else {
        OPERATIONAL
    }
}

fn incident_view(incident: Incident) -> IncidentView {
    IncidentView {
        id: incident.id,
        date: incident.created_at,
        title: incident.title,
        description: incident.description,
        status: incident.status,
        updates: incident
            .updates
            .into_iter()
            .map(|u| UpdateView {
                time: u.created_at,
                status: u.status,
                message: u.message,
            })
            .collect(),
    }
}

fn median(samples: &[i64]) -> i64 {
    let mut sorted = samples.to_vec();
    sorted.sort_unstable();
    sorted.get(sorted.len() / 2).copied().unwrap_or(0)
}

/// Recent confirmation time against the network's usual one.
fn congestion(current: i64, usual: i64) -> &'static str {
    let usual = usual.max(1) as f64;
    match current as f64 / usual {
        r if r >= 2.0 => "high",
        r if r >= 1.3 => "medium",
        _ => "low",
    }
}

/// Typical seconds between blocks of the best-known networks (public chain parameters).
fn block_time(network: &str) -> Option<f64> {
    Some(match network {
        "BTC" | "BCH" => 600.0,
        "ETH" => 12.0,
        "BSC" | "TRX" | "ALGO" => 3.0,
        "SOL" => 0.4,
        "LTC" | "DASH" => 150.0,
        "DOGE" => 60.0,
        "XMR" => 120.0,
        "ZEC" => 75.0,
        "ETC" => 13.0,
        "XRP" => 4.0,
        "XLM" | "TON" => 5.0,
        "ADA" => 20.0,
        "DOT" | "ATOM" => 6.0,
        "AVAXC" | "MATIC" | "POL" | "OP" | "BASE" => 2.0,
        "ARBITRUM" | "ARB" => 0.25,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn service(key: &str, status: &'static str) -> Service {
        Service {
            key: key.into(),
            name: key.into(),
            status,
            latency_ms: None,
            uptime: None,
        }
    }

    #[test]
    fn the_overall_state_is_the_worst_that_matters() {
        let mut services = vec![
            service("api", OPERATIONAL),
            service("database", OPERATIONAL),
            service("mail", OPERATIONAL),
            service("provider:sandbox", OPERATIONAL),
        ];
        assert_eq!(overall(&services), OPERATIONAL);
        services[2].status = DEGRADED;
        assert_eq!(overall(&services), DEGRADED);
        services[3].status = OUTAGE;
        assert_eq!(overall(&services), OUTAGE);
    }

    #[test]
    fn congestion_compares_recent_with_usual_confirmation_times() {
        assert_eq!(congestion(100, 100), "low");
        assert_eq!(congestion(140, 100), "medium");
        assert_eq!(congestion(250, 100), "high");
        assert_eq!(median(&[5, 1, 9]), 5);
    }
}
