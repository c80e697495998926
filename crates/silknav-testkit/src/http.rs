//! A small HTTP/1.1 client over a plain socket, for tests and load tests of the query server:
//! requests on one kept-alive connection, answers with their status, headers and body, and
//! the raw socket for clients that misbehave on purpose (slow, oversized, cut short).
//!
//! Loopback only in practice: it speaks plain HTTP to the address it is given.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// An answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// The headers, names in lower case, in order.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl Response {
    /// The body as text (lossy).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// One connection, kept alive across requests.
#[derive(Debug)]
pub struct Connection {
    reader: BufReader<TcpStream>,
    host: String,
}

impl Connection {
    /// Connects, with a read and write timeout of `timeout`.
    ///
    /// # Errors
    /// The connection fails.
    pub fn open(addr: SocketAddr, timeout: Duration) -> io::Result<Connection> {
        let stream = TcpStream::connect_timeout(&addr, timeout)?;
        stream.set_read_timeout(Some(timeout))?;
        stream.set_write_timeout(Some(timeout))?;
        stream.set_nodelay(true)?;
        Ok(Connection {
            reader: BufReader::new(stream),
            host: addr.to_string(),
        })
    }

    /// The socket, for writing by hand.
    pub fn stream(&mut self) -> &mut TcpStream {
        self.reader.get_mut()
    }

    /// Sends a request (a body with its length and `application/json`, when given) and
    /// reads the answer.
    ///
    /// # Errors
    /// The socket fails or the answer is not HTTP/1.1.
    pub fn request(
        &mut self,
        method: &str,
        path: &str,
        body: Option<&[u8]>,
    ) -> io::Result<Response> {
        let mut head = format!("{method} {path} HTTP/1.1\r\nhost: {}\r\n", self.host);
        if let Some(body) = body {
            head.push_str(&format!(
                "content-type: application/json\r\ncontent-length: {}\r\n",
                body.len()
            ));
        }
        head.push_str("\r\n");
        let stream = self.reader.get_mut();
        let mut message = head.into_bytes();
        message.extend_from_slice(body.unwrap_or_default());
        stream.write_all(&message)?;
        self.read_response()
    }

    /// Reads one answer.
    ///
    /// # Errors
    /// The socket fails or the answer is not HTTP/1.1.
    pub fn read_response(&mut self) -> io::Result<Response> {
        let bad = |what: &str| io::Error::new(io::ErrorKind::InvalidData, what.to_owned());
        let mut line = String::new();
        if self.reader.read_line(&mut line)? == 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "connection closed",
            ));
        }
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| bad("no status line"))?;
        let mut headers = Vec::new();
        loop {
            line.clear();
            self.reader.read_line(&mut line)?;
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            let (name, value) = header.split_once(':').ok_or_else(|| bad("bad header"))?;
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
        }
        let find = |name: &str| {
            headers
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
        };
        let mut body = Vec::new();
        if let Some(length) = find("content-length") {
            let length: usize = length.parse().map_err(|_| bad("bad content-length"))?;
            body.resize(length, 0);
            self.reader.read_exact(&mut body)?;
        } else if find("transfer-encoding").is_some_and(|t| t.contains("chunked")) {
            loop {
                line.clear();
                self.reader.read_line(&mut line)?;
                let size = usize::from_str_radix(line.trim(), 16).map_err(|_| bad("bad chunk"))?;
                let start = body.len();
                body.resize(start + size, 0);
                self.reader.read_exact(&mut body[start..])?;
                line.clear();
                self.reader.read_line(&mut line)?;
                if size == 0 {
                    break;
                }
            }
        }
        Ok(Response {
            status,
            headers,
            body,
        })
    }
}

/// One request on a connection of its own.
///
/// # Errors
/// As for [`Connection::request`].
pub fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&[u8]>,
) -> io::Result<Response> {
    Connection::open(addr, Duration::from_secs(60))?.request(method, path, body)
}

/// `POST path` with a JSON body.
///
/// # Errors
/// As for [`Connection::request`].
pub fn post(addr: SocketAddr, path: &str, body: &str) -> io::Result<Response> {
    request(addr, "POST", path, Some(body.as_bytes()))
}

/// `GET path`.
///
/// # Errors
/// As for [`Connection::request`].
pub fn get(addr: SocketAddr, path: &str) -> io::Result<Response> {
    request(addr, "GET", path, None)
}
