//! Typed configuration: defaults in code → optional `ferry.toml` → `FERRY_*` environment (env wins).
//!
//! Every setting has a safe default. A bad value stops start-up with one line that names the
//! setting and the value (see [`ConfigError`]).

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use figment::Figment;
use figment::providers::{Env, Format, Serialized, Toml};
use ipnet::IpNet;
use rust_decimal::Decimal;
use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Deserializer, Serialize};

use crate::domain::language::{Language, SUPPORTED_LANGUAGES};
use crate::domain::transaction::Explorers;

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// Human-readable on a terminal, JSON otherwise.
    Auto,
    Human,
    Json,
}

/// The built-in simulated market's name in `FERRY_PROVIDERS`: no real funds move.
pub const SANDBOX: &str = "sandbox";

/// An upstream named in `FERRY_PROVIDERS` and set up by `FERRY_{NAME}_URL`, `_KEY` and
/// `_SECRET`; `FERRY_{NAME}_API` says which API it speaks.
#[derive(Debug, Clone)]
pub struct UpstreamSettings {
    /// Lowercase letters and digits: how the status page, the orders and the logs call it.
    pub name: String,
    pub api: UpstreamApi,
    /// The API's base, without its version path (`/api/v2`, `/v2`).
    pub url: String,
    pub key: String,
    /// Empty for an API that signs nothing (ChangeNOW).
    pub secret: SecretString,
    /// `FERRY_{NAME}_WEIGHT_PER_MINUTE`: the request weight the upstream allows a minute.
    pub weight_per_minute: u32,
}

/// The API an upstream speaks (`FERRY_{NAME}_API`): by default the one its name is, else
/// FixedFloat's, which another Ferry speaks too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UpstreamApi {
    /// FixedFloat API v2: FixedFloat itself, or another Ferry.
    FixedFloat,
    /// ChangeNOW API v2.
    ChangeNow,
    /// SideShift.ai API v2 (`_KEY` is the account id, sent as `affiliateId`; `_SECRET` its
    /// private key).
    SideShift,
}

impl UpstreamApi {
    fn parse(text: &str) -> Option<UpstreamApi> {
        match text.trim().to_ascii_lowercase().as_str() {
            "fixedfloat" => Some(UpstreamApi::FixedFloat),
            "changenow" => Some(UpstreamApi::ChangeNow),
            "sideshift" => Some(UpstreamApi::SideShift),
            _ => None,
        }
    }

    /// Where the upstream of that name is when no URL is given.
    fn default_url(self, name: &str) -> Option<&'static str> {
        match (self, name) {
            (UpstreamApi::FixedFloat, "fixedfloat") => Some("https://ff.io"),
            (UpstreamApi::ChangeNow, "changenow") => Some("https://api.changenow.io"),
            (UpstreamApi::SideShift, "sideshift") => Some("https://sideshift.ai"),
            _ => None,
        }
    }

    /// What it allows one key a minute, in request weight.
    fn default_weight_per_minute(self) -> u32 {
        match self {
            UpstreamApi::FixedFloat => FIXEDFLOAT_WEIGHT_PER_MINUTE,
            UpstreamApi::ChangeNow => CHANGENOW_CALLS_PER_MINUTE,
            // Five shifts a minute per address ("Rate Limits"), at 50 each.
            UpstreamApi::SideShift => SIDESHIFT_WEIGHT_PER_MINUTE,
        }
    }
}

/// What ChangeNOW allows a minute ("Rate limits": 1800 calls a minute, 30 a second); creating
/// an order weighs as much as at FixedFloat so that one caller's share stays as small.
pub const CHANGENOW_CALLS_PER_MINUTE: u32 = 1800;

/// SideShift allows five shifts a minute per address; other calls weigh 1.
pub const SIDESHIFT_WEIGHT_PER_MINUTE: u32 = 250;

/// What FixedFloat allows one API key a minute, in units of request weight (its API
/// documentation, "Request limits": 250 units a minute; creating an order costs 50, every
/// other request 1).
pub const FIXEDFLOAT_WEIGHT_PER_MINUTE: u32 = 250;

#[derive(Debug, Clone, Deserialize)]
pub struct Config {
    /// `FERRY_LISTEN`: address and port the HTTP server binds.
    pub listen: SocketAddr,
    /// `FERRY_DATA_DIR`: where the SQLite file, the mail outbox and other state live.
    pub data_dir: PathBuf,
    /// `FERRY_DATABASE_URL`: `sqlite://…` or `postgres://…`; default: SQLite in the data dir.
    #[serde(default)]
    pub database_url: Option<SecretString>,
    /// `FERRY_ADMIN_TOKEN`: enables `/api/admin/*` with `Authorization: Bearer`.
    #[serde(default)]
    pub admin_token: Option<SecretString>,
    /// `FERRY_LOG_FORMAT`: auto | human | json.
    pub log_format: LogFormat,
    /// `FERRY_LOG`: a tracing filter such as `info` or `ferry=debug,sqlx=warn`.
    pub log: String,
    /// `FERRY_PUBLIC_URL`: the base of every absolute link (mails, SEO tags).
    pub public_url: String,
    /// `FERRY_SITE_NAME`: the brand shown in the UI and mails.
    pub site_name: String,
    /// `FERRY_SUPPORT_EMAIL`: where users write to.
    pub support_email: String,
    /// `FERRY_COMPANY_NAME`: the operating company named in the terms and privacy policy.
    pub company_name: String,
    /// `FERRY_COMPANY_ADDRESS`: the office address the contact page shows (optional).
    #[serde(default)]
    pub company_address: Option<String>,
    /// `FERRY_PRESALE_URL`: where the operator runs a token presale, if any; the presale page
    /// links to it. Unset, the page says no presale is open.
    #[serde(default)]
    pub presale_url: Option<String>,
    /// `FERRY_SUPPORT_HOURS`: when support answers, as the contact page shows it; `24/7` for
    /// around the clock (the only case in which the site claims 24/7 support).
    pub support_hours: String,
    /// `FERRY_EXPLORERS`: block explorers instead of the defaults of
    /// `catalogue/explorers.json`, as `NETWORK=https://…{tx}…` entries, comma separated
    /// (`NETWORK=` links that network's transactions nowhere).
    pub explorers: String,
    /// `FERRY_FEE_FLOAT_PERCENT`: Ferry's fee on float-rate orders, in percent.
    pub fee_float_percent: Decimal,
    /// `FERRY_FEE_FIXED_PERCENT`: Ferry's fee on fixed-rate orders, in percent.
    pub fee_fixed_percent: Decimal,
    /// `FERRY_LANGUAGES`: enabled UI languages, comma separated.
    #[serde(deserialize_with = "languages_from_list")]
    pub languages: Vec<Language>,
    /// `FERRY_PROVIDERS`: `sandbox`, or the names of one or more upstreams, comma separated.
    #[serde(deserialize_with = "providers_from_list")]
    pub providers: Vec<String>,
    /// The upstreams `providers` names, with their settings; empty on the sandbox.
    #[serde(skip)]
    pub upstreams: Vec<UpstreamSettings>,
    /// `FERRY_SHUTDOWN_GRACE_SECONDS`: how long in-flight requests may finish after SIGTERM.
    pub shutdown_grace_seconds: u64,
    /// `FERRY_TRUSTED_PROXIES`: the operator's proxies (addresses or CIDR blocks, comma
    /// separated); behind them the client is the rightmost `X-Forwarded-For` hop not among them.
    #[serde(deserialize_with = "networks_from_list")]
    pub trusted_proxies: Vec<IpNet>,
    /// `FERRY_QUOTE_RATE_PER_MINUTE`: quotes one client address may ask for per minute.
    pub quote_rate_per_minute: u32,
    /// `FERRY_ORDER_RATE_PER_MINUTE`: orders one client address may create per minute.
    pub order_rate_per_minute: u32,
    /// `FERRY_REGISTER_RATE_PER_HOUR`: accounts one client address may register per hour.
    pub register_rate_per_hour: u32,
    /// `FERRY_CONTACT_RATE_PER_HOUR`: contact messages one client address may send per hour.
    pub contact_rate_per_hour: u32,
    /// `FERRY_STREAMS_PER_CLIENT`: order event streams one client address may hold open.
    pub streams_per_client: u32,
    /// `FERRY_STREAMS_PER_ORDER`: event streams one order may have open.
    pub streams_per_order: u32,
    /// `FERRY_STREAMS_TOTAL`: event streams this server holds open in all.
    pub streams_total: u32,
    /// `FERRY_PARTNER_AUTH_FAILURES_PER_MINUTE`: refused partner-API signatures one client may
    /// send per minute for one key (three times as many over all keys) before it is paused.
    pub partner_auth_failures_per_minute: u32,
    /// `FERRY_METRICS_TOKEN`: `/metrics` answers a bearer of this token.
    #[serde(default)]
    pub metrics_token: Option<SecretString>,
    /// `FERRY_METRICS_ALLOW`: addresses or CIDR blocks `/metrics` answers without a token.
    /// With neither set, `/metrics` is off (404).
    #[serde(deserialize_with = "networks_from_list")]
    pub metrics_allow: Vec<IpNet>,
    /// `FERRY_MAX_CONNECTIONS`: connections the server holds open in all (fewer if the
    /// process's open-file limit allows fewer).
    pub max_connections: u32,
    /// `FERRY_CONNECTIONS_PER_CLIENT`: connections one client address may hold open (the
    /// operator's proxies count only toward the total).
    pub connections_per_client: u32,
    /// `FERRY_IDLE_TIMEOUT_SECONDS`: how long a connection may take to send a request's
    /// headers, or sit idle between requests, before it is closed.
    pub idle_timeout_seconds: u64,
    /// `FERRY_SANDBOX_SEED`: the seed of the sandbox market's random walk.
    pub sandbox_seed: u64,
    /// `FERRY_SANDBOX_MAINTENANCE`: currency codes the sandbox reports under maintenance.
    #[serde(deserialize_with = "comma_list")]
    pub sandbox_maintenance: Vec<String>,
    /// `FERRY_SANDBOX_STEP_SECONDS`: seconds between the sandbox's simulated order steps.
    pub sandbox_step_seconds: u32,
    /// `FERRY_SANDBOX_AUTOPILOT`: seconds after creation at which the sandbox deposits by
    /// itself; unset, deposits are simulated by hand.
    #[serde(default)]
    pub sandbox_autopilot: Option<u32>,
    /// `FERRY_SANDBOX_PRICES_AT`: a moment (Unix seconds) the sandbox's prices stay at instead
    /// of following the clock: still prices for demos, screenshots and tests; unset, they move.
    #[serde(default)]
    pub sandbox_prices_at: Option<i64>,
    /// `FERRY_ORDER_EXPIRY_MINUTES`: how long an order waits for its deposit.
    pub order_expiry_minutes: u32,
    /// `FERRY_WORKER_INTERVAL_MS`: how often the order worker looks for due work.
    pub worker_interval_ms: u64,
    /// `FERRY_TRUSTED_SINCE`: the year the home page says the service has been trusted since.
    pub trusted_since: u16,
    /// `FERRY_SMTP_URL`: `smtp://user:pass@host:port` (plain), `smtps://…` (TLS) or
    /// `smtp://…?tls=starttls`; unset, mails are written as `.eml` files to `DATA_DIR/outbox/`.
    #[serde(default)]
    pub smtp_url: Option<SecretString>,
    /// `FERRY_MAIL_FROM`: the sender of every mail.
    pub mail_from: String,
    /// `FERRY_MAIL_RETRY_SECONDS`: the first retry delay of an undelivered mail (doubling after).
    pub mail_retry_seconds: u32,
    /// `FERRY_MAIL_ALLOW_IDN`: accept e-mail addresses with non-ASCII letters (internationalised
    /// domains and local parts); off, only ASCII addresses, so no look-alike letters.
    pub mail_allow_idn: bool,
    /// `FERRY_GOOGLE_CLIENT_ID` / `FERRY_GOOGLE_CLIENT_SECRET`: enable Google sign-in.
    #[serde(default)]
    pub google_client_id: Option<String>,
    #[serde(default)]
    pub google_client_secret: Option<SecretString>,
    /// `FERRY_GITHUB_CLIENT_ID` / `FERRY_GITHUB_CLIENT_SECRET`: enable GitHub sign-in.
    #[serde(default)]
    pub github_client_id: Option<String>,
    #[serde(default)]
    pub github_client_secret: Option<SecretString>,
    /// `FERRY_OAUTH_ENDPOINTS_OVERRIDE`: `authorize,token,userinfo` URLs used instead of a
    /// provider's real ones (for tests with a local OAuth server).
    #[serde(default)]
    pub oauth_endpoints_override: Option<String>,
    /// `FERRY_LOGIN_ATTEMPTS`: failed sign-ins (or 2FA codes) per account before a pause.
    pub login_attempts: u32,
    /// `FERRY_LOGIN_PAUSE_MINUTES`: how long that pause lasts.
    pub login_pause_minutes: u32,
    /// `FERRY_STATUS_CHECK_SECONDS`: how often the server records a health check of itself.
    pub status_check_seconds: u64,
    /// `FERRY_CONSOLE_IDLE_SECONDS`: an operator's console locks after this long unused, and
    /// opens again with a fresh two-factor code.
    pub console_idle_seconds: u64,
    /// `FERRY_CONSOLE_STUCK_SECONDS`: an order still moving (confirming, exchanging, sending)
    /// with no change for this long is listed in the back office as needing a person.
    pub console_stuck_seconds: u64,
    /// `FERRY_COINGECKO_URL`: a CoinGecko-compatible API (`https://api.coingecko.com/api/v3`)
    /// for live market data; unset, the markets page shows the embedded sample.
    #[serde(default)]
    pub coingecko_url: Option<String>,
    /// `FERRY_COINGECKO_API_KEY`: its key, if the plan needs one.
    #[serde(default)]
    pub coingecko_api_key: Option<SecretString>,
    /// `FERRY_MARKETS_REFRESH_SECONDS`: how often live market data is refreshed.
    pub markets_refresh_seconds: u64,
    /// `FERRY_PROVIDER_TIMEOUT_MS`: how long a liquidity provider may take to answer before
    /// it counts as down for that call.
    pub provider_timeout_ms: u64,
    /// `FERRY_PROVIDER_POLL_SECONDS`: how often an order an upstream provider fills is looked at.
    pub provider_poll_seconds: u32,
    /// `FERRY_RATES_REFRESH_SECONDS`: how often `/rates/*.xml` are regenerated.
    pub rates_refresh_seconds: u64,
    /// `FERRY_KEY_SECRET`: the key partner-API and webhook secrets are derived from. Unset, a
    /// random one is kept in `DATA_DIR/key-secret`; set it (the same on every replica) when
    /// several replicas share one database.
    #[serde(default)]
    pub key_secret: Option<SecretString>,
    /// `FERRY_REDIS_URL`: `redis://…`. With it every replica shares its request limits there
    /// (quotes, orders, registrations, partner keys and signatures, upstream shares); without it,
    /// or while Redis does not answer, each replica counts alone.
    #[serde(default)]
    pub redis_url: Option<SecretString>,
    /// `FERRY_AFFILIATE_SHARE_PERCENT`: the partner's share of Ferry's fee on attributed orders.
    pub affiliate_share_percent: Decimal,
    /// `FERRY_AFFILIATE_MAX_MARKUP_PERCENT`: the highest `afftax` a partner may add.
    pub affiliate_max_markup_percent: Decimal,
    /// `FERRY_AFFILIATE_MIN_PAYOUT_USD`: the smallest balance a partner may ask to be paid.
    pub affiliate_min_payout_usd: Decimal,
    /// `FERRY_PARTNER_RATE_PER_MINUTE`: requests one API key may make per minute.
    pub partner_rate_per_minute: u32,
    /// `FERRY_WEBHOOK_RETRY_SECONDS`: the first retry delay of an undelivered webhook (doubling
    /// after, at most an hour, for 24 hours).
    pub webhook_retry_seconds: u32,
    /// `FERRY_WEBHOOK_ALLOW_PRIVATE`: let webhooks reach loopback and private addresses (for
    /// tests and closed networks); off, only public addresses are called.
    pub webhook_allow_private: bool,
}

/// The contact page's business hours unless the operator says otherwise (spec: "Mon-Fri 9:00
/// AM-8:00 PM EST, Sat 10:00 AM-6:00 PM EST, Sun closed").
pub const DEFAULT_SUPPORT_HOURS: &str =
    "Mon-Fri 9:00 AM-8:00 PM EST, Sat 10:00 AM-6:00 PM EST, Sun closed";

/// The value of `FERRY_SUPPORT_HOURS` that means around the clock.
pub const ALWAYS_OPEN: &str = "24/7";

/// The defaults, as a serialisable layer under the file and the environment.
#[derive(Serialize)]
struct Defaults {
    listen: &'static str,
    data_dir: &'static str,
    log_format: LogFormat,
    log: &'static str,
    public_url: &'static str,
    site_name: &'static str,
    support_email: &'static str,
    company_name: &'static str,
    support_hours: &'static str,
    explorers: &'static str,
    fee_float_percent: &'static str,
    fee_fixed_percent: &'static str,
    languages: Vec<&'static str>,
    providers: Vec<&'static str>,
    shutdown_grace_seconds: u64,
    trusted_proxies: Vec<&'static str>,
    quote_rate_per_minute: u32,
    order_rate_per_minute: u32,
    register_rate_per_hour: u32,
    contact_rate_per_hour: u32,
    streams_per_client: u32,
    streams_per_order: u32,
    streams_total: u32,
    partner_auth_failures_per_minute: u32,
    metrics_allow: Vec<&'static str>,
    max_connections: u32,
    connections_per_client: u32,
    idle_timeout_seconds: u64,
    sandbox_seed: u64,
    sandbox_maintenance: Vec<&'static str>,
    sandbox_step_seconds: u32,
    order_expiry_minutes: u32,
    worker_interval_ms: u64,
    trusted_since: u16,
    mail_from: &'static str,
    mail_retry_seconds: u32,
    mail_allow_idn: bool,
    login_attempts: u32,
    login_pause_minutes: u32,
    status_check_seconds: u64,
    console_idle_seconds: u64,
    console_stuck_seconds: u64,
    markets_refresh_seconds: u64,
    provider_timeout_ms: u64,
    provider_poll_seconds: u32,
    rates_refresh_seconds: u64,
    affiliate_share_percent: &'static str,
    affiliate_max_markup_percent: &'static str,
    affiliate_min_payout_usd: &'static str,
    partner_rate_per_minute: u32,
    webhook_retry_seconds: u32,
    webhook_allow_private: bool,
}

impl Default for Defaults {
    fn default() -> Self {
        Defaults {
            listen: "127.0.0.1:8080",
            data_dir: "./data",
            log_format: LogFormat::Auto,
            log: "info",
            public_url: "http://127.0.0.1:8080",
            site_name: "Ferry",
            support_email: "support@ferry.local",
            company_name: "Ferry",
            support_hours: DEFAULT_SUPPORT_HOURS,
            explorers: "",
            fee_float_percent: "0.5",
            fee_fixed_percent: "1.0",
            languages: SUPPORTED_LANGUAGES.iter().map(|l| l.code()).collect(),
            providers: vec!["sandbox"],
            shutdown_grace_seconds: 20,
            trusted_proxies: vec![],
            quote_rate_per_minute: 120,
            order_rate_per_minute: 10,
            register_rate_per_hour: 10,
            contact_rate_per_hour: 5,
            streams_per_client: 20,
            streams_per_order: 10,
            streams_total: 10_000,
            partner_auth_failures_per_minute: 10,
            metrics_allow: vec![],
            max_connections: 10_000,
            connections_per_client: 64,
            idle_timeout_seconds: 15,
            sandbox_seed: 42,
            sandbox_maintenance: vec![],
            sandbox_step_seconds: 10,
            order_expiry_minutes: 30,
            worker_interval_ms: 1000,
            trusted_since: 2024,
            mail_from: "Ferry <no-reply@ferry.local>",
            mail_retry_seconds: 30,
            mail_allow_idn: false,
            login_attempts: 5,
            login_pause_minutes: 15,
            status_check_seconds: 60,
            console_idle_seconds: 900,
            console_stuck_seconds: 7200,
            markets_refresh_seconds: 300,
            provider_timeout_ms: 5000,
            provider_poll_seconds: 10,
            rates_refresh_seconds: 60,
            affiliate_share_percent: "40",
            affiliate_max_markup_percent: "3",
            affiliate_min_payout_usd: "50",
            partner_rate_per_minute: 600,
            webhook_retry_seconds: 10,
            webhook_allow_private: false,
        }
    }
}

/// A setting that cannot be used, named the way the operator wrote it.
#[derive(Debug, thiserror::Error)]
#[error("invalid setting {setting}={value}: {reason}")]
pub struct ConfigError {
    pub setting: String,
    pub value: String,
    pub reason: String,
}

impl Config {
    /// Loads the configuration from `ferry.toml` (or `FERRY_CONFIG`) and the process environment.
    pub fn load(config_file: Option<&Path>) -> Result<Config, ConfigError> {
        let file = config_file
            .map(Path::to_path_buf)
            .or_else(|| std::env::var_os("FERRY_CONFIG").map(PathBuf::from))
            .unwrap_or_else(|| PathBuf::from("ferry.toml"));
        Self::from_figment(
            Figment::from(Serialized::defaults(Defaults::default()))
                .merge(Toml::file(file))
                .merge(Env::prefixed("FERRY_").ignore(&["config", "test_database_url"])),
        )
    }

    /// The built-in defaults alone, ignoring any file and the environment (for tests and tools).
    pub fn defaults() -> Config {
        Self::from_figment(Figment::from(Serialized::defaults(Defaults::default())))
            .expect("the built-in defaults are valid")
    }

    fn from_figment(figment: Figment) -> Result<Config, ConfigError> {
        if figment.contains("trust_proxy_headers") {
            return Err(ConfigError {
                setting: "FERRY_TRUST_PROXY_HEADERS".into(),
                value: String::new(),
                reason: "replaced by FERRY_TRUSTED_PROXIES: list your proxies' addresses \
                         (e.g. 10.0.0.0/8); the client is the last forwarded hop not among them"
                    .into(),
            });
        }
        let mut config: Config = figment
            .extract_lossy()
            .map_err(|error| describe(&figment, error))?;
        config.upstreams = upstreams(&figment, &config.providers)?;
        config.validate()?;
        Ok(config)
    }

    fn validate(&self) -> Result<(), ConfigError> {
        let invalid = |setting: &str, value: &dyn std::fmt::Display, reason: &str| ConfigError {
            setting: setting.to_owned(),
            value: format!("{:?}", value.to_string()),
            reason: reason.to_owned(),
        };
        for (name, fee) in [
            ("FERRY_FEE_FLOAT_PERCENT", self.fee_float_percent),
            ("FERRY_FEE_FIXED_PERCENT", self.fee_fixed_percent),
        ] {
            if fee.is_sign_negative() || fee >= Decimal::from(50) {
                return Err(invalid(
                    name,
                    &fee,
                    "a fee must be at least 0 and below 50 percent",
                ));
            }
        }
        if !(self.public_url.starts_with("http://") || self.public_url.starts_with("https://")) {
            return Err(invalid(
                "FERRY_PUBLIC_URL",
                &self.public_url,
                "must start with http:// or https://",
            ));
        }
        if self.languages.is_empty() {
            return Err(invalid(
                "FERRY_LANGUAGES",
                &"",
                "enable at least one language",
            ));
        }
        // Replicas on one PostgreSQL database must derive API-key and webhook secrets alike: a
        // secret each invents for itself makes keys work only on the replica that made them.
        if self.key_secret.is_none()
            && self
                .database_url
                .as_ref()
                .is_some_and(|url| url.expose_secret().starts_with("postgres"))
        {
            return Err(invalid(
                "FERRY_KEY_SECRET",
                &"",
                "is required on PostgreSQL: set the same secret on every replica sharing the database",
            ));
        }
        if let Some(url) = &self.redis_url
            && let Err(error) = redis::Client::open(url.expose_secret())
        {
            return Err(invalid("FERRY_REDIS_URL", &"", &error.to_string()));
        }
        if self.providers.is_empty() {
            return Err(invalid(
                "FERRY_PROVIDERS",
                &"",
                "enable at least one provider",
            ));
        }
        if self.providers.len() > 1 && self.providers.iter().any(|p| p == SANDBOX) {
            return Err(invalid(
                "FERRY_PROVIDERS",
                &self.providers.join(","),
                "the sandbox's simulated orders cannot mix with real ones",
            ));
        }
        if self.idle_timeout_seconds == 0 {
            return Err(invalid(
                "FERRY_IDLE_TIMEOUT_SECONDS",
                &0,
                "must be at least 1",
            ));
        }
        if self.provider_poll_seconds == 0 {
            return Err(invalid(
                "FERRY_PROVIDER_POLL_SECONDS",
                &0,
                "must be at least 1",
            ));
        }
        if self.order_expiry_minutes == 0 {
            return Err(invalid(
                "FERRY_ORDER_EXPIRY_MINUTES",
                &0,
                "must be at least 1",
            ));
        }
        if self.worker_interval_ms < 10 {
            return Err(invalid(
                "FERRY_WORKER_INTERVAL_MS",
                &self.worker_interval_ms,
                "must be at least 10",
            ));
        }
        for (name, value) in [
            ("FERRY_QUOTE_RATE_PER_MINUTE", self.quote_rate_per_minute),
            ("FERRY_ORDER_RATE_PER_MINUTE", self.order_rate_per_minute),
            ("FERRY_REGISTER_RATE_PER_HOUR", self.register_rate_per_hour),
            ("FERRY_CONTACT_RATE_PER_HOUR", self.contact_rate_per_hour),
            ("FERRY_STREAMS_PER_CLIENT", self.streams_per_client),
            ("FERRY_STREAMS_PER_ORDER", self.streams_per_order),
            ("FERRY_STREAMS_TOTAL", self.streams_total),
            ("FERRY_MAX_CONNECTIONS", self.max_connections),
            ("FERRY_CONNECTIONS_PER_CLIENT", self.connections_per_client),
            (
                "FERRY_PARTNER_AUTH_FAILURES_PER_MINUTE",
                self.partner_auth_failures_per_minute,
            ),
        ] {
            if value == 0 {
                return Err(invalid(name, &0, "must be at least 1"));
            }
        }
        if let Err(error) = Explorers::with_overrides(&self.explorers) {
            return Err(invalid(
                "FERRY_EXPLORERS",
                &self.explorers,
                &error.to_string(),
            ));
        }
        if self.mail_from.parse::<lettre::message::Mailbox>().is_err() {
            return Err(invalid(
                "FERRY_MAIL_FROM",
                &self.mail_from,
                "must be an address such as Ferry <no-reply@example.com>",
            ));
        }
        if !(100..=30_000).contains(&self.provider_timeout_ms) {
            return Err(invalid(
                "FERRY_PROVIDER_TIMEOUT_MS",
                &self.provider_timeout_ms,
                "must be between 100 and 30000",
            ));
        }
        if self.markets_refresh_seconds < 10 {
            return Err(invalid(
                "FERRY_MARKETS_REFRESH_SECONDS",
                &self.markets_refresh_seconds,
                "must be at least 10",
            ));
        }
        if let Some(url) = &self.presale_url
            && !url.starts_with("https://")
        {
            return Err(invalid(
                "FERRY_PRESALE_URL",
                url,
                "must start with https://",
            ));
        }
        if let Some(url) = &self.coingecko_url
            && !(url.starts_with("http://") || url.starts_with("https://"))
        {
            return Err(invalid(
                "FERRY_COINGECKO_URL",
                url,
                "must start with http:// or https://",
            ));
        }
        if self.rates_refresh_seconds == 0 {
            return Err(invalid(
                "FERRY_RATES_REFRESH_SECONDS",
                &0,
                "must be at least 1",
            ));
        }
        if self.affiliate_share_percent.is_sign_negative()
            || self.affiliate_share_percent > Decimal::ONE_HUNDRED
        {
            return Err(invalid(
                "FERRY_AFFILIATE_SHARE_PERCENT",
                &self.affiliate_share_percent,
                "must be between 0 and 100",
            ));
        }
        if self.affiliate_max_markup_percent.is_sign_negative()
            || self.affiliate_max_markup_percent > Decimal::from(10)
        {
            return Err(invalid(
                "FERRY_AFFILIATE_MAX_MARKUP_PERCENT",
                &self.affiliate_max_markup_percent,
                "must be between 0 and 10",
            ));
        }
        if self.affiliate_min_payout_usd.is_sign_negative() {
            return Err(invalid(
                "FERRY_AFFILIATE_MIN_PAYOUT_USD",
                &self.affiliate_min_payout_usd,
                "must not be negative",
            ));
        }
        if self.partner_rate_per_minute == 0 {
            return Err(invalid(
                "FERRY_PARTNER_RATE_PER_MINUTE",
                &0,
                "must be at least 1",
            ));
        }
        if self.status_check_seconds == 0 {
            return Err(invalid(
                "FERRY_STATUS_CHECK_SECONDS",
                &0,
                "must be at least 1",
            ));
        }
        if !(60..=86_400).contains(&self.console_idle_seconds) {
            return Err(invalid(
                "FERRY_CONSOLE_IDLE_SECONDS",
                &self.console_idle_seconds,
                "must be between 60 and 86400",
            ));
        }
        if !(60..=2_592_000).contains(&self.console_stuck_seconds) {
            return Err(invalid(
                "FERRY_CONSOLE_STUCK_SECONDS",
                &self.console_stuck_seconds,
                "must be between 60 and 2592000",
            ));
        }
        for (name, value) in [
            ("FERRY_MAIL_RETRY_SECONDS", self.mail_retry_seconds),
            ("FERRY_LOGIN_ATTEMPTS", self.login_attempts),
            ("FERRY_LOGIN_PAUSE_MINUTES", self.login_pause_minutes),
        ] {
            if value == 0 {
                return Err(invalid(name, &0, "must be at least 1"));
            }
        }
        if let Some(url) = &self.smtp_url {
            use secrecy::ExposeSecret;
            let url = url.expose_secret();
            if !(url.starts_with("smtp://") || url.starts_with("smtps://")) {
                return Err(invalid(
                    "FERRY_SMTP_URL",
                    &"(hidden)",
                    "must start with smtp:// or smtps://",
                ));
            }
        }
        if self.site_name.trim().is_empty() {
            return Err(invalid(
                "FERRY_SITE_NAME",
                &self.site_name,
                "must not be empty",
            ));
        }
        Ok(())
    }

    /// The database to open: the configured URL, else a SQLite file in the data directory.
    pub fn database_url(&self) -> String {
        use secrecy::ExposeSecret;
        match &self.database_url {
            Some(url) => url.expose_secret().to_owned(),
            None => format!("sqlite://{}", self.data_dir.join("ferry.db").display()),
        }
    }

    /// The fee schedule Ferry charges.
    pub fn fees(&self) -> crate::domain::fees::FeeSchedule {
        crate::domain::fees::FeeSchedule {
            float_percent: self.fee_float_percent,
            fixed_percent: self.fee_fixed_percent,
        }
    }

    /// Which e-mail addresses Ferry accepts (`FERRY_MAIL_ALLOW_IDN`).
    pub fn email_idn(&self) -> crate::domain::email::Idn {
        crate::domain::email::Idn::allowed_if(self.mail_allow_idn)
    }

    /// The block explorers transactions link to (validated at startup).
    pub fn explorers(&self) -> Explorers {
        Explorers::with_overrides(&self.explorers).expect("validated with the configuration")
    }

    /// Support answers around the clock (`FERRY_SUPPORT_HOURS=24/7`).
    pub fn support_always_open(&self) -> bool {
        self.support_hours.trim() == ALWAYS_OPEN
    }

    /// True while the only active provider is the simulated sandbox market.
    pub fn is_sandbox(&self) -> bool {
        self.upstreams.is_empty()
    }
}

/// Turns figment's error into one line naming the environment variable (or file key) and value.
fn describe(figment: &Figment, error: figment::Error) -> ConfigError {
    let key = error.path.join(".");
    let env_name = format!("FERRY_{}", key.to_uppercase());
    let setting = match error.metadata.as_ref().and_then(|m| m.source.as_ref()) {
        Some(figment::Source::File(path)) => {
            format!("{key} (in {}, or {env_name})", path.display())
        }
        _ => env_name,
    };
    let value = figment
        .find_value(&key)
        .ok()
        .map(|v| match v {
            figment::value::Value::String(_, s) => s,
            other => other
                .into_string()
                .unwrap_or_else(|| format!("{:?}", "(not a single value)")),
        })
        .unwrap_or_default();
    ConfigError {
        setting,
        value: format!("{value:?}"),
        reason: reason_of(&error.kind),
    }
}

fn reason_of(kind: &figment::error::Kind) -> String {
    use figment::error::Kind;
    match kind {
        Kind::Message(message) => message.clone(),
        Kind::InvalidType(_, expected) | Kind::InvalidValue(_, expected) => {
            format!("expected {expected}")
        }
        Kind::UnknownVariant(_, expected) => format!("expected one of {}", expected.join(", ")),
        Kind::MissingField(field) => format!("missing {field}"),
        other => other.to_string(),
    }
}

/// Accepts `"en,de"` (environment) or `["en", "de"]` (file).
fn comma_list<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum List {
        One(String),
        Many(Vec<String>),
    }
    Ok(match List::deserialize(deserializer)? {
        List::One(s) => s
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect(),
        List::Many(items) => items,
    })
}

fn networks_from_list<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<IpNet>, D::Error> {
    comma_list(d)?
        .iter()
        .map(|item| {
            item.parse::<IpNet>()
                .or_else(|_| item.parse::<std::net::IpAddr>().map(IpNet::from))
                .map_err(|_| {
                    serde::de::Error::custom(format!(
                        "{item:?} is not an address or a CIDR block such as 10.0.0.0/8"
                    ))
                })
        })
        .collect()
}

fn languages_from_list<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Language>, D::Error> {
    comma_list(d)?
        .iter()
        .map(|code| {
            Language::parse(code).ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "unknown language {code:?}; supported: {}",
                    SUPPORTED_LANGUAGES.map(|l| l.code()).join(", ")
                ))
            })
        })
        .collect()
}

fn providers_from_list<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    let mut names: Vec<String> = Vec::new();
    for name in comma_list(d)? {
        let name = name.to_ascii_lowercase();
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        {
            return Err(serde::de::Error::custom(format!(
                "provider name {name:?}: use letters and digits (sandbox, or an upstream's name)"
            )));
        }
        if !names.contains(&name) {
            names.push(name);
        }
    }
    Ok(names)
}

/// Each upstream `providers` names, from `FERRY_{NAME}_URL`, `_KEY` and `_SECRET` (or
/// `{name}_url` … in the file); FixedFloat's own address is the default of `fixedfloat`.
fn upstreams(
    figment: &Figment,
    providers: &[String],
) -> Result<Vec<UpstreamSettings>, ConfigError> {
    providers
        .iter()
        .filter(|name| *name != SANDBOX)
        .map(|name| {
            let setting = |suffix: &str| {
                figment
                    .extract_inner::<String>(&format!("{name}_{suffix}"))
                    .ok()
                    .filter(|v| !v.trim().is_empty())
            };
            let missing = |suffix: &str| ConfigError {
                setting: format!(
                    "FERRY_{}_{}",
                    name.to_ascii_uppercase(),
                    suffix.to_ascii_uppercase()
                ),
                value: "\"\"".into(),
                reason: format!("the upstream {name:?} in FERRY_PROVIDERS needs it"),
            };
            let api = match setting("api") {
                None if name == "changenow" => UpstreamApi::ChangeNow,
                None if name == "sideshift" => UpstreamApi::SideShift,
                None => UpstreamApi::FixedFloat,
                Some(text) => UpstreamApi::parse(&text).ok_or_else(|| ConfigError {
                    setting: format!("FERRY_{}_API", name.to_ascii_uppercase()),
                    value: format!("{text:?}"),
                    reason: "must be fixedfloat, changenow or sideshift".into(),
                })?,
            };
            let url = setting("url")
                .or_else(|| api.default_url(name).map(str::to_owned))
                .ok_or_else(|| missing("url"))?;
            let secret = match api {
                UpstreamApi::FixedFloat | UpstreamApi::SideShift => {
                    setting("secret").ok_or_else(|| missing("secret"))?
                }
                UpstreamApi::ChangeNow => String::new(),
            };
            Ok(UpstreamSettings {
                name: name.clone(),
                api,
                url,
                key: setting("key").ok_or_else(|| missing("key"))?,
                secret: secret.into(),
                weight_per_minute: match setting("weight_per_minute") {
                    None => api.default_weight_per_minute(),
                    Some(value) => {
                        value
                            .trim()
                            .parse()
                            .ok()
                            .filter(|w| *w > 0)
                            .ok_or_else(|| ConfigError {
                                setting: format!(
                                    "FERRY_{}_WEIGHT_PER_MINUTE",
                                    name.to_ascii_uppercase()
                                ),
                                value: format!("{value:?}"),
                                reason: "must be a whole number of at least 1".into(),
                            })?
                    }
                },
            })
        })
        .collect()
}

#[cfg(test)]
// figment::Jail fixes the closures' error type; its size is not ours to choose.
#[allow(clippy::result_large_err)]
mod tests {
    use super::*;
    use figment::Jail;

    fn load_in(jail: &Jail) -> Result<Config, ConfigError> {
        let _ = jail;
        Config::load(None)
    }

    #[test]
    fn defaults_need_no_file_and_no_environment() {
        Jail::expect_with(|jail| {
            let config = load_in(jail).expect("defaults load");
            assert_eq!(config.listen.to_string(), "127.0.0.1:8080");
            assert_eq!(config.data_dir, PathBuf::from("./data"));
            assert_eq!(config.database_url(), "sqlite://./data/ferry.db");
            assert!(config.admin_token.is_none());
            assert_eq!(config.languages.len(), 14);
            assert_eq!(config.fee_float_percent, Decimal::new(5, 1));
            assert!(config.is_sandbox());
            Ok(())
        });
    }

    #[test]
    fn environment_wins_over_the_file() {
        Jail::expect_with(|jail| {
            jail.create_file(
                "ferry.toml",
                "listen = \"127.0.0.1:9000\"\nsite_name = \"From file\"\nlanguages = [\"en\", \"de\"]",
            )?;
            jail.set_env("FERRY_LISTEN", "0.0.0.0:7000");
            let config = load_in(jail).expect("loads");
            assert_eq!(config.listen.to_string(), "0.0.0.0:7000");
            assert_eq!(config.site_name, "From file");
            assert_eq!(config.languages, vec![Language::En, Language::De]);
            Ok(())
        });
    }

    #[test]
    fn postgresql_refuses_to_start_without_a_shared_key_secret() {
        Jail::expect_with(|jail| {
            jail.set_env("FERRY_DATABASE_URL", "postgres://ferry@db/ferry");
            let error = load_in(jail).expect_err("refused");
            assert_eq!(error.setting, "FERRY_KEY_SECRET");
            assert!(error.to_string().contains("every replica"), "{error}");
            jail.set_env("FERRY_KEY_SECRET", "a shared secret of enough length");
            load_in(jail).expect("loads with the secret");
            Ok(())
        });
    }

    #[test]
    fn a_comma_separated_language_list_is_accepted_from_the_environment() {
        Jail::expect_with(|jail| {
            jail.set_env("FERRY_LANGUAGES", "en, fr ,ja");
            let config = load_in(jail).expect("loads");
            assert_eq!(
                config.languages,
                vec![Language::En, Language::Fr, Language::Ja]
            );
            Ok(())
        });
    }

    #[test]
    fn the_sandbox_prices_at_setting_is_a_unix_moment_or_refused() {
        Jail::expect_with(|jail| {
            assert_eq!(load_in(jail).expect("loads").sandbox_prices_at, None);
            jail.set_env("FERRY_SANDBOX_PRICES_AT", "1790000000");
            assert_eq!(
                load_in(jail).expect("loads").sandbox_prices_at,
                Some(1_790_000_000)
            );
            jail.set_env("FERRY_SANDBOX_PRICES_AT", "soon");
            assert!(load_in(jail).is_err(), "not a moment");
            Ok(())
        });
    }

    #[test]
    fn upstreams_are_named_in_the_provider_list_and_set_up_by_their_own_variables() {
        use secrecy::ExposeSecret;
        Jail::expect_with(|jail| {
            jail.set_env("FERRY_PROVIDERS", "FixedFloat, harbor");
            jail.set_env("FERRY_FIXEDFLOAT_KEY", "ff-key");
            jail.set_env("FERRY_FIXEDFLOAT_SECRET", "ff-secret");
            jail.set_env("FERRY_HARBOR_URL", "https://harbor.example");
            jail.set_env("FERRY_HARBOR_KEY", "h-key");
            jail.set_env("FERRY_HARBOR_SECRET", "h-secret");
            let config = load_in(jail).expect("loads");
            assert!(!config.is_sandbox());
            let seen: Vec<_> = config
                .upstreams
                .iter()
                .map(|u| {
                    (
                        u.name.as_str(),
                        u.url.as_str(),
                        u.key.as_str(),
                        u.secret.expose_secret(),
                    )
                })
                .collect();
            assert_eq!(
                seen,
                [
                    ("fixedfloat", "https://ff.io", "ff-key", "ff-secret"),
                    ("harbor", "https://harbor.example", "h-key", "h-secret"),
                ]
            );

            jail.set_env("FERRY_HARBOR_SECRET", "");
            let line = load_in(jail).expect_err("a secret is missing").to_string();
            assert!(line.contains("FERRY_HARBOR_SECRET"), "{line}");

            jail.set_env("FERRY_PROVIDERS", "sandbox,fixedfloat");
            let line = load_in(jail).expect_err("no mixing").to_string();
            assert!(line.contains("cannot mix"), "{line}");

            jail.set_env("FERRY_PROVIDERS", "ff.io");
            let line = load_in(jail).expect_err("a bad name").to_string();
            assert!(line.contains("FERRY_PROVIDERS"), "{line}");

            // ChangeNOW by its name, at its own address, with a key and no secret; another
            // name speaks its API when told to.
            jail.set_env("FERRY_PROVIDERS", "changenow,staging");
            jail.set_env("FERRY_CHANGENOW_KEY", "cn-key");
            jail.set_env("FERRY_STAGING_URL", "http://127.0.0.1:9");
            jail.set_env("FERRY_STAGING_KEY", "s-key");
            jail.set_env("FERRY_STAGING_API", "ChangeNOW");
            let config = load_in(jail).expect("loads");
            let seen: Vec<_> = config
                .upstreams
                .iter()
                .map(|u| (u.name.as_str(), u.api, u.url.as_str(), u.weight_per_minute))
                .collect();
            assert_eq!(
                seen,
                [
                    (
                        "changenow",
                        UpstreamApi::ChangeNow,
                        "https://api.changenow.io",
                        1800
                    ),
                    (
                        "staging",
                        UpstreamApi::ChangeNow,
                        "http://127.0.0.1:9",
                        1800
                    ),
                ]
            );
            jail.set_env("FERRY_STAGING_API", "sideshift");
            let line = load_in(jail)
                .expect_err("SideShift needs a secret")
                .to_string();
            assert!(line.contains("FERRY_STAGING_SECRET"), "{line}");
            jail.set_env("FERRY_STAGING_SECRET", "ss-secret");
            let config = load_in(jail).expect("loads");
            assert_eq!(config.upstreams[1].api, UpstreamApi::SideShift);
            jail.set_env("FERRY_STAGING_API", "thorchain");
            let line = load_in(jail).expect_err("unknown").to_string();
            assert!(line.contains("FERRY_STAGING_API"), "{line}");
            Ok(())
        });
    }

    #[test]
    fn a_bad_listen_address_names_the_variable_and_the_value() {
        Jail::expect_with(|jail| {
            jail.set_env("FERRY_LISTEN", "not-an-address");
            let error = load_in(jail).expect_err("must fail");
            let line = error.to_string();
            assert!(line.contains("FERRY_LISTEN"), "{line}");
            assert!(line.contains("not-an-address"), "{line}");
            Ok(())
        });
    }

    #[test]
    fn an_unknown_language_is_refused() {
        Jail::expect_with(|jail| {
            jail.set_env("FERRY_LANGUAGES", "en,xx");
            let line = load_in(jail).expect_err("must fail").to_string();
            assert!(line.contains("FERRY_LANGUAGES"), "{line}");
            assert!(line.contains("xx"), "{line}");
            Ok(())
        });
    }

    #[test]
    fn explorers_can_be_overridden_and_a_bad_one_is_refused() {
        Jail::expect_with(|jail| {
            jail.set_env("FERRY_EXPLORERS", "BTC=https://blockstream.info/tx/{tx}");
            let config = load_in(jail).expect("loads");
            assert_eq!(
                config.explorers().link("BTC", "ab").as_deref(),
                Some("https://blockstream.info/tx/ab")
            );
            jail.set_env("FERRY_EXPLORERS", "BTC=https://blockstream.info/tx/");
            let line = load_in(jail).expect_err("no {tx}").to_string();
            assert!(line.contains("FERRY_EXPLORERS"), "{line}");
            Ok(())
        });
    }

    #[test]
    fn a_negative_fee_is_refused() {
        Jail::expect_with(|jail| {
            jail.set_env("FERRY_FEE_FIXED_PERCENT", "-1");
            let line = load_in(jail).expect_err("must fail").to_string();
            assert!(line.contains("FERRY_FEE_FIXED_PERCENT"), "{line}");
            assert!(line.contains("-1"), "{line}");
            Ok(())
        });
    }

    #[test]
    fn a_non_numeric_fee_is_refused() {
        Jail::expect_with(|jail| {
            jail.set_env("FERRY_FEE_FLOAT_PERCENT", "cheap");
            let line = load_in(jail).expect_err("must fail").to_string();
            assert!(line.contains("FERRY_FEE_FLOAT_PERCENT"), "{line}");
            assert!(line.contains("cheap"), "{line}");
            Ok(())
        });
    }

    #[test]
    fn the_database_url_is_redacted_in_debug_output() {
        Jail::expect_with(|jail| {
            jail.set_env("FERRY_DATABASE_URL", "postgres://u:hunter2@db/ferry");
            jail.set_env("FERRY_KEY_SECRET", "s3cret-shared-by-replicas");
            let config = load_in(jail).expect("loads");
            assert!(!format!("{config:?}").contains("hunter2"));
            assert!(!format!("{config:?}").contains("s3cret"));
            assert_eq!(config.database_url(), "postgres://u:hunter2@db/ferry");
            Ok(())
        });
    }
}
