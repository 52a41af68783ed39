//! A minimal SMTP server for tests: accepts every message and keeps its raw text, or refuses
//! every recipient with a given reply.

use std::sync::{Arc, Mutex};

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

#[derive(Clone, Default)]
pub struct SmtpSink {
    pub messages: Arc<Mutex<Vec<String>>>,
    /// Every `RCPT TO` argument, in order: the envelope's recipients.
    pub recipients: Arc<Mutex<Vec<String>>>,
}

impl SmtpSink {
    /// Serves on `listener` until the test ends.
    pub fn serve(listener: TcpListener) -> SmtpSink {
        Self::serve_answering_recipients(listener, "250 OK")
    }

    /// Serves on `listener`, answering every `RCPT TO` with `reply` (such as
    /// `550 5.1.1 No such user`), so that no message gets through.
    pub fn serve_answering_recipients(listener: TcpListener, reply: &'static str) -> SmtpSink {
        let sink = SmtpSink::default();
        let messages = sink.messages.clone();
        let recipients = sink.recipients.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let messages = messages.clone();
                let recipients = recipients.clone();
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
                        let answer = match verb.as_str() {
                            "EHLO" | "HELO" => "250 sink",
                            "RCPT" => {
                                let to = line.split_once(':').map_or("", |(_, to)| to.trim());
                                recipients.lock().expect("lock").push(to.to_owned());
                                reply
                            }
                            "DATA" => {
                                data = Some(String::new());
                                "354 go ahead"
                            }
                            "QUIT" => {
                                let _ = write.write_all(b"221 bye\r\n").await;
                                break;
                            }
                            _ => "250 OK",
                        };
                        let _ = write.write_all(format!("{answer}\r\n").as_bytes()).await;
                    }
                });
            }
        });
        sink
    }

    pub fn all(&self) -> Vec<String> {
        self.messages.lock().expect("lock").clone()
    }

    pub fn envelope_recipients(&self) -> Vec<String> {
        self.recipients.lock().expect("lock").clone()
    }
}
