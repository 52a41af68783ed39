//! A minimal SMTP server for tests: accepts every message and keeps its raw text.

use std::sync::{Arc, Mutex};

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

#[derive(Clone, Default)]
pub struct SmtpSink {
    pub messages: Arc<Mutex<Vec<String>>>,
}

impl SmtpSink {
    /// Serves on `listener` until the test ends.
    pub fn serve(listener: TcpListener) -> SmtpSink {
        let sink = SmtpSink::default();
        let messages = sink.messages.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let messages = messages.clone();
                tokio::spawn(async move {
                    let (read, mut write) = stream.into_split();
                    let mut lines = BufReader::new(read).lines();
                    let _ = write.write_all(b"220 sink ESMTP\r\n").await;
                    let mut data: Option<String> = None;
                    while let Ok(Some(line)) = lines.next_line().await {
                        if let Some(body) = data.as_mut() {
                            if line == "." {
                                messages
                                    .lock()
                                    .expect("lock")
                                    .push(data.take().unwrap_or_default());
                                let _ = write.write_all(b"250 queued\r\n").await;
                            } else {
                                body.push_str(line.strip_prefix('.').unwrap_or(&line));
                                body.push('\n');
                            }
                            continue;
                        }
                        let verb = line
                            .split_whitespace()
                            .next()
                            .unwrap_or("")
                            .to_ascii_uppercase();
                        let reply: &[u8] = match verb.as_str() {
                            "EHLO" | "HELO" => b"250 sink\r\n",
                            "DATA" => {
                                data = Some(String::new());
                                b"354 go ahead\r\n"
                            }
                            "QUIT" => {
                                let _ = write.write_all(b"221 bye\r\n").await;
                                break;
                            }
                            _ => b"250 OK\r\n",
                        };
                        let _ = write.write_all(reply).await;
                    }
                });
            }
        });
        sink
    }

    pub fn all(&self) -> Vec<String> {
        self.messages.lock().expect("lock").clone()
    }
}
