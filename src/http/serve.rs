//! Serving connections so that no client can exhaust the server: a cap on open connections in
//! all and per client (the operator's proxies count only toward the total), a time limit on
//! reading a request's headers — which also ends connections that sit idle between requests
//! and half-sent requests — and the process's file limit raised as far as it may go.
//!
//! axum's own `serve` has no such knobs, so this is its accept loop with them, on the same
//! hyper connection builder, with the same graceful shutdown.

use std::convert::Infallible;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use ipnet::IpNet;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tower::ServiceExt;

use crate::limits::{ClientKey, Gauge};

/// File descriptors kept for everything but client connections (the database, files, calls).
const RESERVED_FILES: u64 = 256;

/// How many connections, from whom, and for how long a silent one is kept.
#[derive(Debug, Clone)]
pub struct ConnectionLimits {
    pub total: u32,
    pub per_client: u32,
    /// The longest wait for a request's headers, and for the next request on an idle connection.
    pub header_timeout: Duration,
    /// The operator's proxies: many clients behind one address.
    pub trusted_proxies: Vec<IpNet>,
}

/// Raises the soft limit on open files to the hard limit where allowed, and answers how many
/// connections fit under it.
pub fn raise_file_limit(wanted_connections: u32) -> u32 {
    let wanted = u64::from(wanted_connections) + RESERVED_FILES;
    let granted = match rlimit::increase_nofile_limit(wanted) {
        Ok(limit) => limit,
        Err(error) => {
            tracing::warn!(error = %error, "could not read or raise the open-file limit");
            return wanted_connections;
        }
    };
    let fits = granted.saturating_sub(RESERVED_FILES);
    if fits < u64::from(wanted_connections) {
        tracing::warn!(
            limit = granted,
            connections = fits,
            "the open-file limit allows fewer connections than FERRY_MAX_CONNECTIONS; raise it (ulimit -n)"
        );
    }
    u32::try_from(fits.min(u64::from(wanted_connections))).unwrap_or(wanted_connections)
}

/// Serves `site` on `listener` until `shutdown` resolves, then stops accepting and waits for
/// the open connections to finish their requests.
pub async fn serve<S>(
    listener: TcpListener,
    site: S,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) where
    S: tower::Service<
            axum::extract::Request,
            Response = axum::response::Response,
            Error = Infallible,
        > + Clone
        + Send
        + 'static,
    S::Future: Send + 'static,
{
    let per_client = Arc::new(Gauge::new(limits.per_client, limits.total));
    let proxies = Arc::new(Gauge::new(limits.total, limits.total));
    let (stop_tx, stop_rx) = watch::channel(false);
    let (done_tx, done_rx) = watch::channel(());
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of files or memory: accepting again at once would spin.
                    tracing::warn!(error = %error, "accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // A dual-stack listener sees IPv4 peers as `::ffff:a.b.c.d`: compare them as IPv4.
        let ip = peer.ip().to_canonical();
        let trusted = limits.trusted_proxies.iter().any(|n| n.contains(&ip));
        // Over its share (or the server is full): the connection is closed unanswered.
        let permit = if trusted {
            proxies.enter(ClientKey::of(ip))
        } else {
            per_client.enter(ClientKey::of(ip))
        };
        let Some(permit) = permit else {
            drop(stream);
            continue;
        };
        if per_client.open() + proxies.open() > limits.total {
            drop((stream, permit));
            continue;
        }
        let _ = stream.set_nodelay(true);
        let service =
            site.clone()
                .map_request(move |mut request: axum::http::Request<Incoming>| {
                    request.extensions_mut().insert(ConnectInfo(peer));
                    request.map(Body::new)
                });
        let mut stop = stop_rx.clone();
        let done = done_rx.clone();
        let header_timeout = limits.header_timeout;
        tokio::spawn(async move {
            // HTTP/1 (the only protocol compiled in) straight away: hyper-util's auto builder
            // first waits, with no time limit, for bytes that could be HTTP/2's preface, so a
            // connection that never sent a byte would never be timed out.
            let mut builder = http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout);
            let connection =
                builder.serve_connection(TokioIo::new(stream), TowerToHyperService::new(service));
            let mut connection = std::pin::pin!(connection);
            let stopping = async move {
                let _ = stop.wait_for(|stop| *stop).await;
            };
            tokio::select! {
                _ = connection.as_mut() => return drop((permit, done)),
                () = stopping => {}
            }
            // Finish the request under way, take no other.
            connection.as_mut().graceful_shutdown();
            let _ = connection.as_mut().await;
            drop((permit, done));
        });
    }
    drop(listener);
    let _ = stop_tx.send(true);
    drop(done_rx);
    done_tx.closed().await;
}
