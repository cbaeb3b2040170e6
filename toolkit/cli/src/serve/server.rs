//! The HTTP side of `muster serve`: hyper on one thread, with a cap on connections, time
//! limits and a size limit on what a client sends.

use std::convert::Infallible;
use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::header::{ALLOW, CACHE_CONTROL, CONTENT_TYPE, LOCATION, RETRY_AFTER};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};

use super::files::{Lookup, content_type, resolve};

/// The most connections served at once; one more is answered 503 and closed.
pub const MAX_CONNECTIONS: usize = 256;

/// The most connections being answered 503 at once; past that, a connection is closed as
/// soon as it is accepted.
const MAX_REFUSING: usize = 64;

/// How long a client has to send its request line and headers.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(5);

/// How long one connection may last, from accept to the last byte of the answer.
pub const CONNECTION_TIMEOUT: Duration = Duration::from_secs(60);

/// The most bytes of request line and headers a client may send (hyper's read buffer).
pub const MAX_HEAD: usize = 16 * 1024;

/// How long to wait before accepting again when accepting fails (out of file descriptors).
const ACCEPT_PAUSE: Duration = Duration::from_millis(100);

/// What the server serves: the `dist` folder and the page `/` redirects to.
pub struct Site {
    /// The `dist` folder of the build.
    pub dist: PathBuf,
    /// The path of the chosen game's table, such as `/g/web/index.html`.
    pub home: String,
}

/// Serves `site` on `listener` until the process is stopped.
pub fn serve(listener: TcpListener, site: Site) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(accept_loop(listener, Arc::new(site)))
}

/// A count of connections that lets a connection in while it is under its cap.
#[derive(Clone)]
struct Cap {
    count: Arc<AtomicUsize>,
    max: usize,
}

/// One connection counted in a [`Cap`], until it is dropped.
struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Cap {
    fn new(max: usize) -> Cap {
        Cap { count: Arc::new(AtomicUsize::new(0)), max }
    }

    fn take(&self) -> Option<Slot> {
        self.count
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < self.max).then_some(n + 1)
            })
            .ok()
            .map(|_| Slot(self.count.clone()))
    }
}

async fn accept_loop(listener: TcpListener, site: Arc<Site>) -> std::io::Result<()> {
    listener.set_nonblocking(true)?;
    let listener = tokio::net::TcpListener::from_std(listener)?;
    let (served, refusing) = (Cap::new(MAX_CONNECTIONS), Cap::new(MAX_REFUSING));
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(_) => {
                tokio::time::sleep(ACCEPT_PAUSE).await;
                continue;
            }
        };
        if let Some(slot) = served.take() {
            let site = site.clone();
            tokio::spawn(connection(stream, slot, move |req| answer(&site, &req)));
        } else if let Some(slot) = refusing.take() {
            tokio::spawn(connection(stream, slot, |_| busy()));
        }
    }
}

/// Serves one request on `stream` with `answer`, within the time and size limits.
async fn connection(
    stream: tokio::net::TcpStream,
    slot: Slot,
    answer: impl Fn(Request<Incoming>) -> Response<Full<Bytes>> + Send + 'static,
) {
    let service = service_fn(move |req| {
        let response = answer(req);
        async move { Ok::<_, Infallible>(response) }
    });
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(HEADER_TIMEOUT)
        .max_buf_size(MAX_HEAD)
        .keep_alive(false);
    let served = http.serve_connection(TokioIo::new(stream), service);
    let _ = tokio::time::timeout(CONNECTION_TIMEOUT, served).await;
    drop(slot);
}

fn response(status: StatusCode, body: impl Into<Bytes>) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(body.into()));
    *r.status_mut() = status;
    r
}

fn busy() -> Response<Full<Bytes>> {
    let mut r = response(StatusCode::SERVICE_UNAVAILABLE, "too many connections");
    r.headers_mut().insert(RETRY_AFTER, hyper::header::HeaderValue::from_static("1"));
    r
}

/// The answer to one request: `/` goes to the table, files inside a game's `web/` folder
/// are served, anything else is not found (404) or forbidden (403, a link out of it).
fn answer(site: &Site, req: &Request<Incoming>) -> Response<Full<Bytes>> {
    if req.method() != Method::GET && req.method() != Method::HEAD {
        let mut r = response(StatusCode::METHOD_NOT_ALLOWED, "");
        r.headers_mut()
            .insert(ALLOW, hyper::header::HeaderValue::from_static("GET, HEAD"));
        return r;
    }
    let target = req.uri().path();
    if target == "/" {
        let mut r = response(StatusCode::FOUND, "");
        if let Ok(home) = hyper::header::HeaderValue::from_str(&site.home) {
            r.headers_mut().insert(LOCATION, home);
        }
        return r;
    }
    let file = match resolve(&site.dist, target) {
        Lookup::File(file) => file,
        Lookup::Outside => return response(StatusCode::FORBIDDEN, "forbidden"),
        Lookup::Missing => return response(StatusCode::NOT_FOUND, "not found"),
    };
    let Ok(body) = std::fs::read(&file) else {
        return response(StatusCode::NOT_FOUND, "not found");
    };
    let mut r = response(StatusCode::OK, body);
    let headers = r.headers_mut();
    headers.insert(
        CONTENT_TYPE,
        hyper::header::HeaderValue::from_static(content_type(&file)),
    );
    headers.insert(CACHE_CONTROL, hyper::header::HeaderValue::from_static("no-cache"));
    r
}
