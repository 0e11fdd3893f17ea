//! [`SmtpSink`]: a minimal SMTP server on a loopback port that accepts every message and
//! keeps it, so mail code is tested through a real SMTP conversation.

use std::sync::{Arc, Mutex};

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

#[derive(Debug, Clone)]
pub struct ReceivedMail {
    pub from: String,
    pub to: Vec<String>,
    /// The message as transmitted (headers and body, dot-unstuffed).
    pub data: String,
}

#[derive(Clone)]
pub struct SmtpSink {
    pub port: u16,
    received: Arc<Mutex<Vec<ReceivedMail>>>,
}

impl SmtpSink {
    /// Starts listening; runs on the current (actix or tokio) runtime.
    pub async fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let received = Arc::new(Mutex::new(Vec::new()));
        let sink = Self { port, received: received.clone() };
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let received = received.clone();
                tokio::spawn(async move {
                    let _ = converse(stream, received).await;
                });
            }
        });
        sink
    }

    /// `smtp://127.0.0.1:PORT` (plain SMTP, no TLS).
    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    pub fn received(&self) -> Vec<ReceivedMail> {
        self.received.lock().unwrap().clone()
    }
}

async fn converse(
    stream: tokio::net::TcpStream,
    received: Arc<Mutex<Vec<ReceivedMail>>>,
) -> std::io::Result<()> {
    let (read, mut write) = stream.into_split();
    let mut lines = BufReader::new(read).lines();
    write.write_all(b"220 sink.local ESMTP test sink\r\n").await?;
    let (mut from, mut to) = (String::new(), Vec::new());
    while let Some(line) = lines.next_line().await? {
        let upper = line.to_ascii_uppercase();
        let reply: &[u8] = if upper.starts_with("EHLO") {
            b"250-sink.local\r\n250 8BITMIME\r\n"
        } else if upper.starts_with("HELO") || upper.starts_with("NOOP") {
            b"250 OK\r\n"
        } else if upper.starts_with("MAIL FROM:") {
            from = line[10..].trim().to_owned();
            b"250 OK\r\n"
        } else if upper.starts_with("RCPT TO:") {
            to.push(line[8..].trim().to_owned());
            b"250 OK\r\n"
        } else if upper.starts_with("RSET") {
            from.clear();
            to.clear();
            b"250 OK\r\n"
        } else if upper.starts_with("DATA") {
            write.write_all(b"354 End data with <CR><LF>.<CR><LF>\r\n").await?;
            let mut data = String::new();
            while let Some(line) = lines.next_line().await? {
                if line == "." {
                    break;
                }
                data.push_str(line.strip_prefix('.').unwrap_or(&line));
                data.push_str("\r\n");
            }
            received.lock().unwrap().push(ReceivedMail {
                from: from.clone(),
                to: std::mem::take(&mut to),
                data,
            });
            b"250 OK: queued\r\n"
        } else if upper.starts_with("QUIT") {
            write.write_all(b"221 Bye\r\n").await?;
            return Ok(());
        } else {
            b"502 Command not implemented\r\n"
        };
        write.write_all(reply).await?;
    }
    Ok(())
}
