use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use ferry::config::Config;

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
            Command::Serve => serve(config).await,
            Command::Migrate => migrate(config).await,
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
    let sandbox = config.is_sandbox();
    let app = ferry::build(config).await?;
    tracing::info!(address = %app.local_addr(), sandbox, "ferry is listening on http://{}", app.local_addr());
    app.run_until(ferry::shutdown_signal()).await
}

async fn migrate(config: Config) -> anyhow::Result<()> {
    let store = ferry::store::open(&config.database_url()).await?;
    store.close().await;
    tracing::info!("migrations applied");
    Ok(())
}
