//! [`FreezableProxy`]: a TCP proxy on a loopback port in front of a real server (the test
//! PostgreSQL), which a test can freeze: from then on nothing it receives is passed on and
//! no new connection gets through, while every socket stays open. That is a database that
//! stops answering without refusing (a stuck server, a dropped network path), which
//! timeouts must turn into a quick 503 instead of a request that never ends. Or refuse:
//! every open connection is cut and new ones are closed at once (a server that is down).

use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::{Arc, Condvar, Mutex};

pub struct FreezableProxy {
    addr: SocketAddr,
    gate: Arc<Gate>,
}

/// Open, frozen or refusing, shared by every pump.
struct Gate {
    frozen: Mutex<bool>,
    changed: Condvar,
    refusing: std::sync::atomic::AtomicBool,
    /// Both ends of every connection, to cut them when refusing.
    open: Mutex<Vec<TcpStream>>,
}

impl Gate {
    fn wait_open(&self) {
        let mut frozen = self.frozen.lock().unwrap();
        while *frozen {
            frozen = self.changed.wait(frozen).unwrap();
        }
    }

    fn set(&self, frozen: bool) {
        *self.frozen.lock().unwrap() = frozen;
        self.changed.notify_all();
    }
}

impl FreezableProxy {
    /// Forwards every connection to `target` (`host:port`) until frozen.
    pub fn start(target: &str) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let gate = Arc::new(Gate {
            frozen: Mutex::new(false),
            changed: Condvar::new(),
            refusing: std::sync::atomic::AtomicBool::new(false),
            open: Mutex::new(Vec::new()),
        });
        let (target, accept_gate) = (target.to_owned(), gate.clone());
        std::thread::spawn(move || {
            for client in listener.incoming().map_while(Result::ok) {
                let (target, gate) = (target.clone(), accept_gate.clone());
                std::thread::spawn(move || {
                    if gate.refusing.load(std::sync::atomic::Ordering::SeqCst) {
                        return; // closed at once
                    }
                    gate.wait_open();
                    let Ok(server) = TcpStream::connect(&target) else { return };
                    gate.open
                        .lock()
                        .unwrap()
                        .extend([client.try_clone().unwrap(), server.try_clone().unwrap()]);
                    pump(client.try_clone().unwrap(), server.try_clone().unwrap(), gate.clone());
                    pump(server, client, gate);
                });
            }
        });
        Self { addr, gate }
    }

    /// `host:port` to connect to instead of the target.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stops passing anything on (sockets stay open).
    pub fn freeze(&self) {
        self.gate.set(true);
    }

    /// Passes on again what was held and what comes.
    pub fn thaw(&self) {
        self.gate.set(false);
    }

    /// Cuts every open connection and closes new ones at once, until [`Self::accept`].
    pub fn refuse(&self) {
        self.gate.refusing.store(true, std::sync::atomic::Ordering::SeqCst);
        for stream in self.gate.open.lock().unwrap().drain(..) {
            let _ = stream.shutdown(Shutdown::Both);
        }
    }

    /// Lets connections through again.
    pub fn accept(&self) {
        self.gate.refusing.store(false, std::sync::atomic::Ordering::SeqCst);
    }
}

impl Drop for FreezableProxy {
    fn drop(&mut self) {
        self.thaw();
    }
}

/// Copies `from` to `to`, holding each chunk while the gate is frozen.
fn pump(mut from: TcpStream, mut to: TcpStream, gate: Arc<Gate>) {
    std::thread::spawn(move || {
        let mut buffer = [0u8; 16 * 1024];
        while let Ok(n) = from.read(&mut buffer) {
            if n == 0 {
                break;
            }
            gate.wait_open();
            if to.write_all(&buffer[..n]).is_err() {
                break;
            }
        }
        let _ = to.shutdown(Shutdown::Write);
    });
}
