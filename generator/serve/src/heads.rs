//! Connections still sending their request head, and how long they may take.
//!
//! Request threads are few (see `listen`), and a connection holds one from
//! the moment it is accepted, so a client that sends its head a byte at a
//! time holds it for as long as it likes; forty such clients ("slowloris")
//! kept every real request at 503. Two bounds keep them from it:
//!
//! - the whole head must arrive within [`HeadLimits::deadline`] of the
//!   first read ([`UntilDeadline`]), however its bytes are spread, where a
//!   timeout on each read let a byte every few seconds go on for ever;
//! - when every thread is taken, a new connection takes the thread of the
//!   one that has been sending its head the longest, if that one has been at
//!   it for over [`HeadLimits::patience`] ([`Heads::hand_over`]): its socket
//!   is shut and its thread answers the new connection instead. A browser
//!   sends its head at once, so it is never the one cut, and the number of
//!   threads stays what it was.

use std::collections::HashMap;
use std::io::{self, Read};
use std::net::{Shutdown, TcpStream};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// How long a client may take over its request head.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeadLimits {
    /// For the whole head, from the first read.
    pub deadline: Duration,
    /// Sending its head for longer than this, a connection may be cut for a
    /// new one when every thread is taken.
    pub patience: Duration,
}

impl Default for HeadLimits {
    fn default() -> Self {
        HeadLimits { deadline: Duration::from_secs(10), patience: Duration::from_secs(2) }
    }
}

/// The connections whose threads are reading their heads.
#[derive(Default)]
pub struct Heads {
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    next_id: u64,
    reading: Vec<Reading>,
    /// Connections handed to the threads of cut connections, by the cut
    /// connection's id.
    handed: HashMap<u64, TcpStream>,
}

struct Reading {
    id: u64,
    since: Instant,
    /// A handle on the connection, to shut it if it is cut.
    stream: TcpStream,
}

/// A connection that [`Heads::enter`] registered; [`Heads::leave`] ends it.
pub struct Ticket {
    id: u64,
}

impl Heads {
    /// Registers `connection` as reading its head, from now.
    pub fn enter(&self, connection: &TcpStream) -> Ticket {
        let mut state = self.lock();
        let id = state.next_id;
        state.next_id += 1;
        // A connection that cannot be cloned (out of descriptors) cannot be
        // cut either; its deadline still ends it.
        if let Ok(stream) = connection.try_clone() {
            state.reading.push(Reading { id, since: Instant::now(), stream });
        }
        Ticket { id }
    }

    /// Ends the reading of `ticket`'s connection. Returns the connection
    /// handed over to its thread meanwhile, if it was cut: whatever was read
    /// of the cut one is dropped with it, as its socket is shut.
    pub fn leave(&self, ticket: Ticket) -> Option<TcpStream> {
        let mut state = self.lock();
        state.reading.retain(|reading| reading.id != ticket.id);
        state.handed.remove(&ticket.id)
    }

    /// Hands `connection` to the thread of the connection that has been
    /// reading its head the longest, if for over `patience`, and shuts that
    /// one; gives `connection` back when there is none such.
    pub fn hand_over(&self, connection: TcpStream, patience: Duration) -> Result<(), TcpStream> {
        let mut state = self.lock();
        let oldest = (0..state.reading.len()).min_by_key(|&i| state.reading[i].since);
        let Some(index) = oldest.filter(|&i| state.reading[i].since.elapsed() > patience) else {
            return Err(connection);
        };
        let cut = state.reading.swap_remove(index);
        state.handed.insert(cut.id, connection);
        drop(state);
        // Its thread's read ends at once, and finds the new connection.
        let _ = cut.stream.shutdown(Shutdown::Both);
        Ok(())
    }

    /// How many connections are reading their heads.
    #[cfg(test)]
    pub fn reading(&self) -> usize {
        self.lock().reading.len()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // Nothing is left half done under the lock.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Reads from a connection until a deadline, however the reads are spread:
/// each waits at most for what is left of the time.
pub struct UntilDeadline<'a> {
    stream: &'a TcpStream,
    until: Instant,
}

impl<'a> UntilDeadline<'a> {
    /// Reads from `stream` for `time` from now.
    pub fn new(stream: &'a TcpStream, time: Duration) -> UntilDeadline<'a> {
        UntilDeadline { stream, until: Instant::now() + time }
    }
}

impl Read for UntilDeadline<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::ErrorKind::TimedOut.into());
        }
        self.stream.set_read_timeout(Some(left))?;
        let mut stream = self.stream;
        stream.read(buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::net::TcpListener;

    /// A connected pair: (client, server side).
    fn pair() -> (TcpStream, TcpStream) {
        let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap();
        let client = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        (client, listener.accept().unwrap().0)
    }

    #[test]
    fn the_deadline_is_for_all_the_reads_together() {
        let (mut client, server) = pair();
        let writer = std::thread::spawn(move || {
            // A byte every 50 ms: each read gets one well within any timeout.
            for _ in 0..40 {
                if client.write_all(b"G").is_err() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        });
        let started = Instant::now();
        let mut reader = UntilDeadline::new(&server, Duration::from_millis(400));
        let mut byte = [0u8];
        let error = loop {
            if let Err(error) = reader.read(&mut byte) {
                break error;
            }
        };
        assert!(matches!(error.kind(), io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock), "{error}");
        assert!(started.elapsed() < Duration::from_millis(1500), "{:?}", started.elapsed());
        drop(server);
        writer.join().unwrap();
    }

    #[test]
    fn a_new_connection_takes_the_place_of_the_one_reading_longest() {
        let heads = Heads::default();
        let (_old_client, old) = pair();
        let (_young_client, young) = pair();
        let old_ticket = heads.enter(&old);
        std::thread::sleep(Duration::from_millis(60));
        let young_ticket = heads.enter(&young);
        let (_new_client, new) = pair();
        // Nobody has waited past the patience: the new connection is refused.
        let new = heads.hand_over(new, Duration::from_secs(60)).unwrap_err();
        assert!(heads.hand_over(new, Duration::from_millis(30)).is_ok());
        assert_eq!(heads.reading(), 1, "the old one is no longer reading");
        // The old one's socket is shut: its read ends at once.
        assert_eq!((&old).read(&mut [0u8; 8]).unwrap(), 0);
        let handed = heads.leave(old_ticket).expect("its thread gets the new connection");
        assert_ne!(handed.peer_addr().unwrap(), old.peer_addr().unwrap());
        assert!(heads.leave(young_ticket).is_none());
        assert_eq!(heads.reading(), 0);
    }
}
