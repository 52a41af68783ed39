//! The ceiling under Ferry's HTTP stack on this machine (docs/benchmarks.md): hyper alone, one
//! fixed quote-sized answer per request, no routing, headers or work. `mt PORT` serves it on a
//! multi-threaded tokio runtime as Ferry does; `ct PORT` on one single-threaded runtime per core
//! (SO_REUSEPORT), as nginx's workers do.
//!
//! `cargo build --release --example http_ceiling`, then drive it with wrk as `make bench` does.
use axum::body::Body;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use std::convert::Infallible;

const BODY: &[u8] = br#"{"code":0,"msg":"OK","data":{"errors":[],"from":{"code":"BTC","coin":"BTC","network":"BTC","amount":"0.1","rate":"33.1","precision":8,"min":"0.0005","max":"3"},"to":{"code":"ETH","coin":"ETH","network":"ETH","amount":"3.31","rate":"0.03","precision":8,"min":"0.01","max":"100"}}}"#;

async fn hello(_: Request<hyper::body::Incoming>) -> Result<Response<Body>, Infallible> {
    Ok(Response::builder()
        .header("content-type", "application/json")
        .body(Body::from(BODY))
        .unwrap())
}

async fn accept(listener: tokio::net::TcpListener) {
    loop {
        let (stream, _) = listener.accept().await.unwrap();
        stream.set_nodelay(true).unwrap();
        tokio::spawn(async move {
            let _ = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service_fn(hello))
                .await;
        });
    }
}

fn listener(port: u16) -> tokio::net::TcpListener {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_reuseport(true).unwrap();
    socket.set_reuseaddr(true).unwrap();
    socket.bind(([127, 0, 0, 1], port).into()).unwrap();
    socket.listen(1024).unwrap()
}

fn main() {
    let mode = std::env::args().nth(1).unwrap();
    let port: u16 = std::env::args().nth(2).unwrap().parse().unwrap();
    if mode == "mt" {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap()
            .block_on(async { accept(listener(port)).await });
    } else {
        let threads: Vec<_> = (0..2)
            .map(|_| {
                std::thread::spawn(move || {
                    tokio::runtime::Builder::new_current_thread()
                        .enable_all()
                        .build()
                        .unwrap()
                        .block_on(async { accept(listener(port)).await });
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
    }
}
