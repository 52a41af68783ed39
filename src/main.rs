use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use ferry::config::Config;

/// jemalloc rather than the system allocator: glibc keeps what each thread's arena once held, and
/// password hashing (19 MiB per Argon2 hash, on whichever blocking thread runs it) and the
/// multi-megabyte rate files left a server holding 400–850 MB of which its heap used 80
/// (docs/benchmarks.md, "Memory under mixed use").
#[cfg(feature = "jemalloc")]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// jemalloc returns freed pages to the system a few seconds after they are freed, but only when
/// it next allocates, unless its background thread does it: without it, a server gone quiet
/// would hold what its last busy minute used.
fn return_freed_memory_while_idle() {
    #[cfg(feature = "jemalloc")]
    if let Err(error) = tikv_jemalloc_ctl::background_thread::write(true) {
        tracing::warn!(%error, "jemalloc's background thread did not start: freed memory is returned only on allocation");
    }
}

/// The heap as jemalloc sees it, in /metrics every 5 s: what the program holds
/// (`ferry_heap_allocated_bytes`) and what the allocator keeps in memory for it
/// (`ferry_heap_resident_bytes`), to tell a growing heap from an allocator that keeps too much.
#[cfg(feature = "jemalloc")]
async fn report_heap() {
    use tikv_jemalloc_ctl::{epoch, stats};
    let mut every = tokio::time::interval(std::time::Duration::from_secs(5));
    loop {
        every.tick().await;
        if epoch::advance().is_err() {
            continue;
        }
        if let (Ok(allocated), Ok(resident)) = (stats::allocated::read(), stats::resident::read()) {
            metrics::gauge!("ferry_heap_allocated_bytes").set(allocated as f64);
            metrics::gauge!("ferry_heap_resident_bytes").set(resident as f64);
        }
    }
}

/// Ferry: a self-hostable, non-custodial instant-swap exchange.
///
/// Settings come from an optional ferry.toml and FERRY_* environment variables (env wins);
/// see the README for the full table.
#[derive(Parser)]
#[command(name = "ferry", version, about, long_about)]
struct Cli {
    /// Path to the configuration file [default: ferry.toml, or FERRY_CONFIG]
    #[arg(long, global = true, value_name = "FILE")]
    config: Option<PathBuf>,

    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the exchange: the web app, the API, metrics and health checks (the default).
    Serve,
    /// Apply pending database migrations, then exit.
    Migrate,
    /// Copy the SQLite database, while the server runs, to a new file (restore: stop the server,
    /// put the copy in the database's place, start it).
    Backup {
        /// Where the copy goes; must not exist yet.
        path: PathBuf,
    },
    /// Database tools.
    #[command(subcommand)]
    Db(DbCommand),
    /// The sandbox market's tools.
    #[command(subcommand)]
    Sandbox(SandboxCommand),
    /// Operator tasks.
    #[command(subcommand)]
    Admin(AdminCommand),
}

#[derive(Subcommand)]
enum DbCommand {
    /// Copy everything from an SQLite database (at this binary's migrations; read-only) into a
    /// new, empty PostgreSQL database, comparing every table's rows and content before it
    /// commits. Stop the servers first: what is written after the copy starts stays behind (to
    /// copy again, drop and create the target anew).
    Copy {
        /// The SQLite database (`sqlite://…`).
        #[arg(long)]
        from: String,
        /// The empty PostgreSQL database (`postgres://…`).
        #[arg(long)]
        to: String,
    },
}

#[derive(Subcommand)]
enum SandboxCommand {
    /// Simulate the customer's deposit for an order (default: exactly the ordered amount).
    Deposit {
        /// The order's id.
        order_id: String,
        /// The amount deposited, in the send coin.
        amount: Option<String>,
    },
}

#[derive(Subcommand)]
enum AdminCommand {
    /// Switch a currency on or off for customers.
    #[command(subcommand)]
    Currency(CurrencyCommand),
    /// Record incidents for the status page.
    #[command(subcommand)]
    Incident(IncidentCommand),
    /// Affiliate payout requests.
    #[command(subcommand)]
    Payouts(PayoutCommand),
    /// Who may use the back office (users with a role; they sign in with 2FA).
    #[command(subcommand)]
    Operator(OperatorCommand),
}

#[derive(Subcommand)]
enum OperatorCommand {
    /// Give a signed-up user a role: support, operator or owner (the first owner starts here).
    Add { email: String, role: String },
    /// Take a user's role away (never the last owner's).
    Remove { email: String },
    /// List the operators.
    List,
}

#[derive(Subcommand)]
enum PayoutCommand {
    /// List payout requests, oldest first (default: the open ones).
    List {
        /// requested, paid, rejected or all.
        #[arg(long, default_value = "requested")]
        status: String,
    },
    /// Mark a request paid, with the payout's transaction id.
    Paid { id: String, txid: String },
    /// Reject a request; its amount returns to the partner's balance.
    Reject { id: String },
}

#[derive(Subcommand)]
enum IncidentCommand {
    /// Open an incident (status: investigating); prints its id.
    Open {
        title: String,
        /// What customers should know.
        #[arg(default_value = "")]
        description: String,
    },
    /// Post an update: investigating, identified, monitoring or resolved.
    Update {
        id: String,
        status: String,
        message: String,
    },
    /// List the incidents, newest first.
    List,
}

#[derive(Subcommand)]
enum CurrencyCommand {
    /// Customers may not send this currency.
    DisableSend { code: String },
    /// Customers may send this currency again.
    EnableSend { code: String },
    /// Customers may not receive this currency.
    DisableRecv { code: String },
    /// Customers may receive this currency again.
    EnableRecv { code: String },
    /// List the operator's switches.
    List,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let config = match Config::load(cli.config.as_deref()) {
        Ok(config) => config,
        Err(error) => {
            eprintln!("ferry: {error}");
            return ExitCode::from(2);
        }
    };
    ferry::telemetry::init(config.log_format, &config.log);
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("ferry: cannot start the async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(async move {
        match cli.command.unwrap_or(Command::Serve) {
            Command::Serve => {
                return_freed_memory_while_idle();
                #[cfg(feature = "jemalloc")]
                tokio::spawn(report_heap());
                serve(config).await
            }
            Command::Migrate => migrate(config).await,
            Command::Backup { path } => backup(config, &path).await,
            Command::Db(DbCommand::Copy { from, to }) => copy_database(&config, &from, &to).await,
            Command::Sandbox(SandboxCommand::Deposit { order_id, amount }) => {
                sandbox_deposit(config, &order_id, amount.as_deref()).await
            }
            Command::Admin(AdminCommand::Currency(command)) => currency(config, command).await,
            Command::Admin(AdminCommand::Incident(command)) => incident(config, command).await,
            Command::Admin(AdminCommand::Payouts(command)) => payouts(config, command).await,
            Command::Admin(AdminCommand::Operator(command)) => operators(config, command).await,
        }
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            tracing::error!(error = format!("{error:#}"), "ferry stopped with an error");
            eprintln!("ferry: {error:#}");
            ExitCode::FAILURE
        }
    }
}

async fn serve(config: Config) -> anyhow::Result<()> {
    let shutdown = ferry::shutdown_signal();
    let sandbox = config.is_sandbox();
    let app = ferry::build(config).await?;
    tracing::info!(address = %app.local_addr(), sandbox, "ferry is listening on http://{}", app.local_addr());
    app.run_until(shutdown).await
}

async fn migrate(config: Config) -> anyhow::Result<()> {
    let store = ferry::store::open(&config.database_url()).await?;
    store.close().await;
    tracing::info!("migrations applied");
    Ok(())
}

async fn backup(config: Config, path: &std::path::Path) -> anyhow::Result<()> {
    anyhow::ensure!(
        !path.exists(),
        "{} exists: a backup never overwrites a file",
        path.display()
    );
    let url = config.database_url();
    anyhow::ensure!(
        ferry::store::Backend::of_url(&url) == Some(ferry::store::Backend::Sqlite),
        "backup copies an SQLite database; back PostgreSQL up with pg_dump -Fc"
    );
    ferry::store::backup_sqlite(&url, path).await?;
    println!("backed up to {}", path.display());
    Ok(())
}

async fn copy_database(config: &Config, from: &str, to: &str) -> anyhow::Result<()> {
    let tables = ferry::store::copy::copy_database(from, to).await?;
    for table in &tables {
        println!("{:<28} {:>9} rows  {}", table.name, table.rows, table.hash);
    }
    println!(
        "copied {} tables; every row count and content hash matches",
        tables.len()
    );
    // Partner keys and webhook signatures are derived from the key secret: on PostgreSQL it
    // must be set, and be the one the SQLite server used (kept beside its database, unless it
    // had FERRY_KEY_SECRET).
    if config.key_secret.is_none() {
        let database = from.trim_start_matches("sqlite:").trim_start_matches("//");
        let beside = std::path::Path::new(database.split('?').next().unwrap_or(database))
            .with_file_name("key-secret");
        println!(
            "set FERRY_KEY_SECRET on every replica to the contents of {} (partner keys depend on it)",
            beside.display()
        );
    }
    Ok(())
}

async fn sandbox_deposit(
    config: Config,
    order_id: &str,
    amount: Option<&str>,
) -> anyhow::Result<()> {
    anyhow::ensure!(
        config.is_sandbox(),
        "deposits are simulated only while the sandbox is the provider"
    );
    let amount = amount
        .map(|a| ferry::domain::money::Amount::parse(a).map(|a| a.value()))
        .transpose()
        .map_err(|e| anyhow::anyhow!("invalid amount: {e}"))?;
    let store = ferry::store::open(&config.database_url()).await?;
    let services = ferry::services(&config, store.clone()).await?;
    let order = services
        .orders
        .deposit(
            order_id,
            amount,
            ferry::now_unix(),
            Some(cli_audit("order.deposit", ("order", order_id))),
        )
        .await?;
    println!(
        "order {} is {} (received {} {})",
        order.id,
        order.status.as_str(),
        ferry::domain::money::to_wire(order.received_amount.unwrap_or_default()),
        order.from_code
    );
    store.close().await;
    Ok(())
}

/// The audit entry of an act done with this command: by `cli`, as the machine's user
/// (`login@host`, from the environment).
fn cli_audit(action: &str, subject: (&str, &str)) -> ferry::store::AuditEntry {
    let user = std::env::var("SUDO_USER")
        .or_else(|_| std::env::var("USER"))
        .unwrap_or_else(|_| "unknown".into());
    let host = std::fs::read_to_string("/etc/hostname")
        .map(|h| h.trim().to_owned())
        .unwrap_or_else(|_| "localhost".into());
    let actor = ferry::domain::operator::Actor::Cli {
        login: format!("{user}@{host}"),
    };
    ferry::store::AuditEntry::new(&actor, action, subject, ferry::now_unix())
}

async fn incident(config: Config, command: IncidentCommand) -> anyhow::Result<()> {
    let store = ferry::store::open(&config.database_url()).await?;
    let services = ferry::services(&config, store.clone()).await?;
    let status = ferry::services::status::StatusService::new(
        store.clone(),
        services.catalogue,
        services.provider,
        services.switches,
        config.status_check_seconds,
    );
    let now = ferry::now_unix();
    match command {
        IncidentCommand::Open { title, description } => {
            let audit = cli_audit("incident.open", ("incident", ""));
            let (id, _) = status
                .open_incident(&title, &description, now, audit)
                .await?;
            println!("{id}");
        }
        IncidentCommand::Update {
            id,
            status: state,
            message,
        } => {
            let audit = cli_audit("incident.update", ("incident", &id));
            status
                .update_incident(&id, &state, &message, now, &audit)
                .await?;
            println!("{id} {state}");
        }
        IncidentCommand::List => {
            for i in status.incidents().await? {
                println!("{}  {:<13} {}", i.id, i.status, i.title);
            }
        }
    }
    store.close().await;
    Ok(())
}

async fn payouts(config: Config, command: PayoutCommand) -> anyhow::Result<()> {
    let store = ferry::store::open(&config.database_url()).await?;
    let services = ferry::services(&config, store.clone()).await?;
    let ledger = &services.partners.ledger;
    let now = ferry::now_unix();
    match command {
        PayoutCommand::List { status } => {
            let filter = (status != "all").then_some(status.as_str());
            let payouts = ledger.payouts(filter).await?;
            if payouts.is_empty() {
                println!("no payout requests ({status})");
            }
            for p in payouts {
                let user = store.find_user(&p.user_id).await?;
                println!(
                    "{}  {:<9} ${:<10} {:<8} {}{}  {}",
                    p.id,
                    p.status,
                    p.amount_usd,
                    p.currency,
                    p.address,
                    p.tag.map(|t| format!(" (tag {t})")).unwrap_or_default(),
                    user.map_or_else(|| "(deleted user)".to_owned(), |u| u.email),
                );
            }
        }
        PayoutCommand::Paid { id, txid } => {
            let audit = cli_audit("payout.close", ("payout", &id));
            ledger
                .close_payout(&id, true, Some(&txid), now, &audit)
                .await?;
            println!("{id} paid");
        }
        PayoutCommand::Reject { id } => {
            let audit = cli_audit("payout.close", ("payout", &id));
            ledger.close_payout(&id, false, None, now, &audit).await?;
            println!("{id} rejected");
        }
    }
    store.close().await;
    Ok(())
}

async fn operators(config: Config, command: OperatorCommand) -> anyhow::Result<()> {
    use ferry::domain::operator::Role;
    use ferry::store::RoleChange;
    let store = ferry::store::open(&config.database_url()).await?;
    let (email, role) = match command {
        OperatorCommand::List => {
            for user in store.operators().await? {
                let role = user.operator_role.map_or("-", Role::as_str);
                let two_factor = if user.totp_enabled {
                    "2FA on"
                } else {
                    "2FA OFF: the console stays shut"
                };
                println!("{:<40} {role:<9} {two_factor}", user.email);
            }
            store.close().await;
            return Ok(());
        }
        OperatorCommand::Add { email, role } => {
            let parsed = Role::parse(&role.to_ascii_lowercase()).ok_or_else(|| {
                anyhow::anyhow!("unknown role {role:?}: support, operator or owner")
            })?;
            (email, Some(parsed))
        }
        OperatorCommand::Remove { email } => (email, None),
    };
    let email = ferry::domain::account::sign_in_key(&email, config.email_idn());
    let audit = cli_audit("operator.set", ("user", &email));
    let change = store
        .set_operator_role(&email, role, ferry::now_unix(), &audit)
        .await?;
    store.close().await;
    match change {
        RoleChange::Changed { user, .. } => {
            match user.operator_role {
                Some(role) => println!("{} is now {role}", user.email),
                None => println!("{} is no longer an operator", user.email),
            }
            if !user.totp_enabled {
                println!("(the console opens once they turn on two-factor authentication)");
            }
            Ok(())
        }
        RoleChange::NoSuchUser => {
            anyhow::bail!("no account with the e-mail {email}: the operator signs up first")
        }
        RoleChange::Unverified => {
            anyhow::bail!("{email} has not confirmed its e-mail address yet")
        }
        RoleChange::LastOwner => {
            anyhow::bail!("{email} is the last owner: make another owner first")
        }
    }
}

async fn currency(config: Config, command: CurrencyCommand) -> anyhow::Result<()> {
    use ferry::store::CurrencyOverride;
    let store = ferry::store::open(&config.database_url()).await?;
    let (code, send, recv) = match command {
        CurrencyCommand::List => {
            for o in store.currency_overrides().await? {
                let flag = |f: Option<bool>| f.map_or("-", |on| if on { "on" } else { "off" });
                println!(
                    "{:<12} send {:<3} recv {:<3}",
                    o.code,
                    flag(o.send_enabled),
                    flag(o.recv_enabled)
                );
            }
            store.close().await;
            return Ok(());
        }
        CurrencyCommand::DisableSend { code } => (code, Some(false), None),
        CurrencyCommand::EnableSend { code } => (code, Some(true), None),
        CurrencyCommand::DisableRecv { code } => (code, None, Some(false)),
        CurrencyCommand::EnableRecv { code } => (code, None, Some(true)),
    };
    let currency = ferry::domain::currency::Catalogue::embedded()
        .get(&code)
        .ok_or_else(|| anyhow::anyhow!("unknown currency {code}"))?;
    let current = store
        .currency_overrides()
        .await?
        .into_iter()
        .find(|o| o.code == currency.code);
    let current = current.unwrap_or_default();
    let value = CurrencyOverride {
        code: currency.code.clone(),
        send_enabled: send.or(current.send_enabled),
        recv_enabled: recv.or(current.recv_enabled),
        updated_at: ferry::now_unix(),
        ..current
    };
    let audit = cli_audit("currency.set", ("currency", &value.code));
    store.set_currency_override(&value, &audit).await?;
    println!(
        "{}: send {:?}, recv {:?} (running servers pick this up within 30 s)",
        value.code, value.send_enabled, value.recv_enabled
    );
    store.close().await;
    Ok(())
}
