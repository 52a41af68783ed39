//! Ferry: a self-hostable, non-custodial instant-swap exchange in one binary.

pub mod config;
pub mod domain;
pub mod http;
pub mod limits;
pub mod providers;
pub mod services;
pub mod store;
pub mod telemetry;
pub mod workers;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use tokio::net::TcpListener;

use crate::config::Config;
use crate::config::UpstreamApi;
use crate::domain::currency::Catalogue;
use crate::http::{AppContext, AppState};
use crate::providers::changenow::{ChangeNow, ChangeNowConfig};
use crate::providers::fixedfloat::{FixedFloat, FixedFloatConfig};
use crate::providers::routed::Routed;
use crate::providers::sandbox::{SandboxConfig, SandboxMarket};
use crate::providers::sideshift::{SideShift, SideShiftConfig};
use crate::providers::{Deadline, LiquidityProvider};
use crate::services::accounts::{AccountSettings, Accounts};
use crate::services::availability::CurrencySwitches;
use crate::services::contact::Contact;
use crate::services::mail::Mailer;
use crate::services::market_data::{LiveSource, MarketData};
use crate::services::oauth::{Endpoints, ProviderConfig, SocialSignIn};
use crate::services::orders::{OrderSettings, Orders, StatusMails};
use crate::services::partners::Partners;
use crate::services::partners::keys::{self, ApiKeys};
use crate::services::partners::ledger::{Ledger, LedgerSettings};
use crate::services::partners::public_net::SystemResolver;
use crate::services::partners::webhooks::Webhooks;
use crate::services::rate_export::RateExport;
use crate::services::status::StatusService;
use crate::store::DynStore;

/// A built application: its listener is bound and its database migrated, ready to serve.
pub struct App {
    listener: TcpListener,
    router: axum::Router,
    /// Where the site is reached from outside (whether it is HTTPS decides HSTS).
    public_url: String,
    connections: http::serve::ConnectionLimits,
    /// Tells long answers (event streams) that the server is stopping.
    stopping: tokio::sync::watch::Sender<bool>,
    store: DynStore,
    orders: Arc<Orders>,
    shutdown_grace: Duration,
    background: Vec<tokio::task::JoinHandle<()>>,
}

/// The exchange's use cases over one store, as the server and the operator commands use them.
pub struct Services {
    pub catalogue: &'static Catalogue,
    pub sandbox: Arc<SandboxMarket>,
    /// The configured provider behind a deadline (or, with several, the best of them): what
    /// quotes, orders and the status page call.
    pub provider: Arc<dyn LiquidityProvider>,
    /// The upstream providers Ferry fills its orders at; none on the sandbox.
    pub upstreams: Vec<Arc<dyn LiquidityProvider>>,
    pub switches: CurrencySwitches,
    pub orders: Arc<Orders>,
    pub accounts: Arc<Accounts>,
    pub partners: Arc<Partners>,
    /// The limits every replica shares (with `FERRY_REDIS_URL`).
    pub shared_limits: Option<Arc<limits::SharedCounter>>,
}

pub async fn services(config: &Config, store: DynStore) -> anyhow::Result<Services> {
    let catalogue = Catalogue::embedded();
    let sandbox = Arc::new(SandboxMarket::new(
        catalogue,
        SandboxConfig {
            seed: config.sandbox_seed,
            maintenance: config
                .sandbox_maintenance
                .iter()
                .map(|c| c.to_ascii_uppercase())
                .collect(),
            prices_at: config.sandbox_prices_at,
        },
    ));
    let timeout = Duration::from_millis(config.provider_timeout_ms);
    let shared_limits = shared_limits(config, store.as_ref()).await?;
    let upstreams = upstreams(config, timeout, shared_limits.as_ref())?;
    let provider = provider(&sandbox, &upstreams, timeout);
    let switches = CurrencySwitches::default();
    switches
        .reload(store.as_ref())
        .await
        .context("loading the currency switches")?;
    let mailer = mailer(config, store.clone())?;
    let partners = Arc::new(partners(
        config,
        shared_limits.as_ref(),
        store.clone(),
        catalogue,
        provider.clone(),
        switches.clone(),
    )?);
    let orders = Arc::new(
        Orders::new(
            store.clone(),
            catalogue,
            provider.clone(),
            switches.clone(),
            config.fees(),
            OrderSettings {
                expiry_seconds: i64::from(config.order_expiry_minutes) * 60,
                sandbox_step_seconds: i64::from(config.sandbox_step_seconds),
                autopilot_seconds: config.sandbox_autopilot.map(i64::from),
                provider_poll_seconds: i64::from(config.provider_poll_seconds),
                provider_timeout_seconds: i64::try_from(config.provider_timeout_ms.div_ceil(1000))
                    .unwrap_or(i64::MAX),
                status_mails: Some(StatusMails {
                    mailer: mailer.clone(),
                    site_name: config.site_name.clone(),
                    public_url: config.public_url.clone(),
                    support_email: config.support_email.clone(),
                }),
                partners: Some(partners.clone()),
                email_idn: config.email_idn(),
                upstream_orders_per_caller_per_minute: upstream_share(config),
                shared_limits: shared_limits.clone(),
                explorers: config.explorers(),
            },
        )
        .await
        .context("preparing the order service")?,
    );
    let accounts = Arc::new(accounts(config, store, mailer));
    Ok(Services {
        catalogue,
        sandbox,
        provider,
        upstreams,
        switches,
        orders,
        accounts,
        partners,
        shared_limits,
    })
}

/// Orders one caller may open at the upstreams a minute: half of what the most frugal upstream
/// allows (its weight budget over an order's weight), at least one; none on the sandbox.
fn upstream_share(config: &Config) -> Option<u32> {
    config
        .upstreams
        .iter()
        .map(|u| u.weight_per_minute / providers::fixedfloat::CREATE_WEIGHT / 2)
        .min()
        .map(|n| n.max(1))
}

/// The sandbox, the one upstream, or the best of several, each behind its deadline.
fn provider(
    sandbox: &Arc<SandboxMarket>,
    upstreams: &[Arc<dyn LiquidityProvider>],
    timeout: Duration,
) -> Arc<dyn LiquidityProvider> {
    let mut guarded: Vec<Arc<dyn LiquidityProvider>> = upstreams
        .iter()
        .map(|u| Arc::new(Deadline::new(u.clone(), timeout)) as Arc<dyn LiquidityProvider>)
        .collect();
    match guarded.len() {
        0 => Arc::new(Deadline::new(sandbox.clone(), timeout)),
        1 => guarded.remove(0),
        _ => Arc::new(Routed::new(guarded)),
    }
}

/// The limits every replica shares, with `FERRY_REDIS_URL`, under a name the database keeps (so
/// every replica of this site uses the same, and another site on the same Redis another).
async fn shared_limits(
    config: &Config,
    store: &dyn store::Store,
) -> anyhow::Result<Option<Arc<limits::SharedCounter>>> {
    use secrecy::ExposeSecret;
    let Some(url) = &config.redis_url else {
        return Ok(None);
    };
    let candidate = uuid::Uuid::new_v4().simple().to_string();
    let namespace = store
        .secret("limits_namespace", &candidate[..12])
        .await
        .context("reading the limits' namespace")?;
    let counter =
        limits::SharedCounter::new(url.expose_secret(), &namespace).context("FERRY_REDIS_URL")?;
    Ok(Some(Arc::new(counter)))
}

/// The upstreams `FERRY_PROVIDERS` names, each speaking its API.
fn upstreams(
    config: &Config,
    timeout: Duration,
    shared_limits: Option<&Arc<limits::SharedCounter>>,
) -> anyhow::Result<Vec<Arc<dyn LiquidityProvider>>> {
    config
        .upstreams
        .iter()
        .map(|settings| {
            // Named once per process start, for as long as it runs.
            let name: &'static str = Box::leak(settings.name.clone().into_boxed_str());
            let context = || format!("FERRY_{}_URL", settings.name.to_ascii_uppercase());
            let upstream: Arc<dyn LiquidityProvider> = match settings.api {
                UpstreamApi::FixedFloat => Arc::new(
                    FixedFloat::new(FixedFloatConfig {
                        name,
                        base_url: settings.url.clone(),
                        key: settings.key.clone(),
                        secret: settings.secret.clone(),
                        timeout,
                        weight_per_minute: settings.weight_per_minute,
                        shared_limits: shared_limits.cloned(),
                    })
                    .with_context(context)?,
                ),
                UpstreamApi::ChangeNow => Arc::new(
                    ChangeNow::new(ChangeNowConfig {
                        name,
                        base_url: settings.url.clone(),
                        key: settings.key.clone().into(),
                        timeout,
                        calls_per_minute: settings.weight_per_minute,
                        shared_limits: shared_limits.cloned(),
                        fees: config.fees(),
                    })
                    .with_context(context)?,
                ),
                UpstreamApi::SideShift => Arc::new(
                    SideShift::new(SideShiftConfig {
                        name,
                        base_url: settings.url.clone(),
                        affiliate_id: settings.key.clone(),
                        secret: settings.secret.clone(),
                        timeout,
                        weight_per_minute: settings.weight_per_minute,
                        shared_limits: shared_limits.cloned(),
                        fees: config.fees(),
                    })
                    .with_context(context)?,
                ),
            };
            Ok(upstream)
        })
        .collect()
}

fn partners(
    config: &Config,
    shared_limits: Option<&Arc<limits::SharedCounter>>,
    store: DynStore,
    catalogue: &'static Catalogue,
    provider: Arc<dyn LiquidityProvider>,
    switches: CurrencySwitches,
) -> anyhow::Result<Partners> {
    use secrecy::ExposeSecret;
    let master = keys::load_master_key(
        config.key_secret.as_ref().map(|s| s.expose_secret()),
        &config.data_dir,
    )
    .context("reading or creating DATA_DIR/key-secret")?;
    let keys = Arc::new(ApiKeys::new(
        store.clone(),
        master,
        config.partner_rate_per_minute,
        shared_limits,
        config.webhook_allow_private,
    ));
    Ok(Partners {
        ledger: Arc::new(Ledger::new(
            store.clone(),
            catalogue,
            provider,
            switches,
            LedgerSettings {
                share_percent: config.affiliate_share_percent,
                max_markup_percent: config.affiliate_max_markup_percent,
                min_payout_usd: config.affiliate_min_payout_usd,
            },
        )),
        webhooks: Arc::new(Webhooks::new(
            store,
            keys.clone(),
            catalogue,
            config.webhook_retry_seconds,
            config.webhook_allow_private,
            Arc::new(SystemResolver),
        )),
        keys,
    })
}

fn social_sign_in(config: &Config, store: DynStore) -> SocialSignIn {
    use secrecy::ExposeSecret;
    let provider = |id: &Option<String>, secret: &Option<secrecy::SecretString>| {
        Some(ProviderConfig {
            client_id: id.clone().filter(|s| !s.is_empty())?,
            client_secret: secret.as_ref()?.expose_secret().to_owned(),
        })
    };
    SocialSignIn::new(
        store,
        &config.public_url,
        provider(&config.google_client_id, &config.google_client_secret),
        provider(&config.github_client_id, &config.github_client_secret),
        config
            .oauth_endpoints_override
            .as_deref()
            .and_then(Endpoints::parse_override),
    )
}

fn mailer(config: &Config, store: DynStore) -> anyhow::Result<Mailer> {
    use secrecy::ExposeSecret;
    let from = config
        .mail_from
        .parse()
        .context("FERRY_MAIL_FROM is not an address")?;
    Mailer::new(
        store,
        from,
        config.smtp_url.as_ref().map(|u| u.expose_secret()),
        config.data_dir.join("outbox"),
        config.mail_retry_seconds,
    )
    .context("FERRY_SMTP_URL")
}

fn accounts(config: &Config, store: DynStore, mailer: Mailer) -> Accounts {
    Accounts::new(
        store,
        mailer,
        AccountSettings {
            public_url: config.public_url.clone(),
            site_name: config.site_name.clone(),
            support_email: config.support_email.clone(),
            max_failures: i64::from(config.login_attempts),
            pause_seconds: i64::from(config.login_pause_minutes) * 60,
            email_idn: config.email_idn(),
        },
    )
}

/// Opens the store, applies migrations, binds the listener and assembles the router.
pub async fn build(config: Config) -> anyhow::Result<App> {
    let store = store::open(&config.database_url())
        .await
        .context("opening the database")?;
    let listener = TcpListener::bind(config.listen)
        .await
        .with_context(|| format!("binding FERRY_LISTEN={}", config.listen))?;
    let shutdown_grace = Duration::from_secs(config.shutdown_grace_seconds);
    let Services {
        catalogue,
        sandbox,
        provider,
        upstreams,
        switches,
        orders,
        accounts,
        partners,
        shared_limits,
    } = services(&config, store.clone()).await?;
    let mut background = vec![
        tokio::spawn(workers::run_sandbox_market(sandbox.clone())),
        tokio::spawn(workers::refresh_currency_switches(
            switches.clone(),
            store.clone(),
        )),
        tokio::spawn(workers::run_orders(
            orders.clone(),
            Duration::from_millis(config.worker_interval_ms),
        )),
        tokio::spawn(workers::run_mail_outbox(
            accounts.mailer().clone(),
            Duration::from_millis(config.worker_interval_ms),
        )),
        tokio::spawn(workers::run_webhooks(
            partners.webhooks.clone(),
            Duration::from_millis(config.worker_interval_ms),
        )),
    ];
    if store.backend() == store::Backend::Postgres {
        background.push(tokio::spawn(services::orders::watch::listen_postgres(
            config.database_url(),
            orders.watchers(),
            shared_limits.is_some(),
        )));
    }
    let social = Arc::new(social_sign_in(&config, store.clone()));
    let status = Arc::new(StatusService::new(
        store.clone(),
        catalogue,
        provider.clone(),
        switches.clone(),
        config.status_check_seconds,
    ));
    let markets = Arc::new(
        MarketData::new(
            store.clone(),
            config.coingecko_url.clone().map(|base_url| LiveSource {
                base_url,
                api_key: config
                    .coingecko_api_key
                    .as_ref()
                    .map(|k| secrecy::ExposeSecret::expose_secret(k).to_owned()),
            }),
        )
        .await
        .context("loading the market data")?,
    );
    background.push(tokio::spawn(workers::run_market_refresh(
        markets.clone(),
        Duration::from_secs(config.markets_refresh_seconds),
    )));
    let rates = Arc::new(RateExport::new(
        store.clone(),
        config.rates_refresh_seconds,
        catalogue,
        provider.clone(),
        switches.clone(),
        config.fees(),
    ));
    background.push(tokio::spawn(workers::run_rate_export(rates.clone())));
    for upstream in upstreams {
        background.push(tokio::spawn(workers::run_upstream_currencies(upstream)));
    }
    background.push(tokio::spawn(workers::run_status_checks(
        status.clone(),
        Duration::from_secs(config.status_check_seconds),
    )));
    let contact = Arc::new(Contact::new(
        store.clone(),
        accounts.mailer().clone(),
        &config.support_email,
        &config.site_name,
        config.contact_rate_per_hour,
        config.email_idn(),
    ));
    let limits = Arc::new(limits::Limits::new(&config, shared_limits.as_ref()));
    // Places in the streams' gauges kept in Redis lapse unless this replica renews them.
    background.push(tokio::spawn(
        limits.streams_by_client.clone().renew_shared_places(),
    ));
    background.push(tokio::spawn(
        limits.streams_by_order.clone().renew_shared_places(),
    ));
    let (stopping, stopping_rx) = tokio::sync::watch::channel(false);
    let state = AppState::new(AppContext {
        limits,
        config: Arc::new(config),
        store: store.clone(),
        metrics: http::metrics::recorder(),
        catalogue,
        provider,
        switches,
        orders,
        accounts,
        social,
        contact,
        status,
        markets,
        rates,
        sandbox: sandbox.clone(),
        partners,
        currency_list: http::exchange::CurrencyListCache::default(),
        stopping: stopping_rx,
        pages: http::spa::PageCache::default(),
    });
    let connections = http::serve::ConnectionLimits {
        total: http::serve::raise_file_limit(state.config.max_connections),
        per_client: state.config.connections_per_client,
        header_timeout: Duration::from_secs(state.config.idle_timeout_seconds),
        trusted_proxies: state.config.trusted_proxies.clone(),
    };
    Ok(App {
        listener,
        connections,
        stopping,
        orders: state.orders.clone(),
        public_url: state.config.public_url.clone(),
        router: http::router(state),
        store,
        shutdown_grace,
        background,
    })
}

impl App {
    pub fn local_addr(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .expect("a bound listener has an address")
    }

    pub fn store(&self) -> DynStore {
        self.store.clone()
    }

    /// The order service, for operator commands and tests.
    pub fn orders(&self) -> Arc<Orders> {
        self.orders.clone()
    }

    /// Serves until `shutdown` resolves, then stops accepting, lets in-flight requests finish
    /// (for at most the grace period) and closes the database.
    pub async fn run_until(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        let (stop_tx, mut stop_rx) = tokio::sync::watch::channel(false);
        let site = http::site(self.router, &self.public_url);
        let server = http::serve::serve(self.listener, site, self.connections, async move {
            let _ = stop_rx.wait_for(|stop| *stop).await;
        });
        let mut server = tokio::spawn(server);

        tokio::select! {
            result = &mut server => {
                result.context("server task")?;
            }
            () = shutdown => {
                tracing::info!("shutting down: finishing in-flight requests");
                let _ = self.stopping.send(true);
                let _ = stop_tx.send(true);
                match tokio::time::timeout(self.shutdown_grace, &mut server).await {
                    Ok(result) => result.context("server task")?,
                    Err(_) => {
                        tracing::warn!("grace period over; dropping remaining connections");
                        server.abort();
                    }
                }
            }
        }
        for task in &self.background {
            task.abort();
        }
        self.store.close().await;
        tracing::info!("stopped");
        Ok(())
    }
}

/// Resolves on SIGINT or SIGTERM. The handlers are installed when this is called (not when
/// the future is first polled), so a signal that arrives during start-up is not lost and does
/// not kill the process ungracefully. Call it inside the runtime, before announcing readiness.
pub fn shutdown_signal() -> impl Future<Output = ()> + Send + 'static {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let terminate = signal(SignalKind::terminate());
        let interrupt = signal(SignalKind::interrupt());
        async move {
            match (terminate, interrupt) {
                (Ok(mut terminate), Ok(mut interrupt)) => {
                    tokio::select! {
                        _ = terminate.recv() => {},
                        _ = interrupt.recv() => {},
                    }
                }
                _ => std::future::pending::<()>().await,
            }
        }
    }
    #[cfg(not(unix))]
    {
        async {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}

/// Seconds since the Unix epoch, the one clock the server's records use.
pub fn now_unix() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}
