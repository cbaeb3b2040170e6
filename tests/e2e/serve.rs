//! `muster serve` under load and abuse: idle and slow clients, endless request lines,
//! symbolic links and paths that lead out of a game's `web/` folder.

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A `muster serve` running on a free port of 127.0.0.1, stopped when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    /// `muster serve` of the game `g` in `dir/dist/g/web`.
    fn start(dir: &Path) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_muster"))
            .args(["serve", "--game", "g", "--port", "0"])
            .current_dir(dir)
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let url = line.split_whitespace().find(|w| w.starts_with("http://")).unwrap();
        let addr =
            url.trim_start_matches("http://").split('/').next().unwrap().to_string();
        Server { child, addr }
    }

    fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect(&self.addr).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        stream.set_write_timeout(Some(Duration::from_secs(20))).unwrap();
        stream
    }

    /// The whole answer to `request`, sent as it is.
    fn ask(&self, request: &str) -> String {
        let mut stream = self.connect();
        stream.write_all(request.as_bytes()).unwrap();
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        String::from_utf8_lossy(&answer).into_owned()
    }

    fn get(&self, path: &str) -> String {
        self.ask(&format!("GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n"))
    }

    /// A line of the server's `/proc/<pid>/status`, such as `Threads` or `VmHWM`, as a
    /// number.
    fn status(&self, key: &str) -> u64 {
        let text =
            std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let line = text.lines().find(|l| l.starts_with(&format!("{key}:"))).unwrap();
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    }
}

/// A folder with a built-looking `dist/g/web/` (a page and a WebAssembly file) and a secret
/// beside `dist/`.
fn site() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let web = tmp.path().join("dist/g/web");
    std::fs::create_dir_all(&web).unwrap();
    std::fs::write(web.join("index.html"), "<!doctype html><title>table</title>")
        .unwrap();
    std::fs::write(web.join("checker.wasm"), b"\0asm\x01\0\0\0").unwrap();
    std::fs::write(tmp.path().join("secret.txt"), "the secret").unwrap();
    tmp
}

fn status_line(answer: &str) -> &str {
    answer.lines().next().unwrap_or_default()
}

#[test]
fn the_table_is_served_as_before() {
    let tmp = site();
    let server = Server::start(tmp.path());
    let home = server.get("/");
    assert!(status_line(&home).contains("302"), "{home}");
    assert!(home.to_lowercase().contains("location: /g/web/index.html"), "{home}");
    let page = server.get("/g/web/index.html");
    assert!(status_line(&page).contains("200"), "{page}");
    assert!(page.to_lowercase().contains("content-type: text/html"), "{page}");
    assert!(page.ends_with("<title>table</title>"), "{page}");
    let wasm = server.get("/g/web/checker.wasm?v=1");
    assert!(wasm.to_lowercase().contains("content-type: application/wasm"), "{wasm}");
    let head = server.ask("HEAD /g/web/index.html HTTP/1.1\r\nHost: x\r\n\r\n");
    assert!(status_line(&head).contains("200") && !head.contains("<title>"), "{head}");
    let missing = server.get("/g/web/nothing.js");
    assert!(status_line(&missing).contains("404"), "{missing}");
    let post = server.ask("POST /g/web/index.html HTTP/1.1\r\nContent-Length: 0\r\n\r\n");
    assert!(status_line(&post).contains("405"), "{post}");
}

#[test]
fn many_idle_connections_neither_stop_a_request_nor_take_a_thread_each() {
    let tmp = site();
    let server = Server::start(tmp.path());
    let idle: Vec<TcpStream> = (0..200).map(|_| server.connect()).collect();
    let page = server.get("/g/web/index.html");
    assert!(status_line(&page).contains("200"), "{page}");
    let threads = server.status("Threads");
    assert!(threads < 16, "{threads} threads for {} idle connections", idle.len());
    drop(idle);
}

#[test]
fn connections_past_the_cap_are_refused_with_503() {
    let tmp = site();
    let server = Server::start(tmp.path());
    // The first in are served until the header time limit; one past the cap is refused.
    let idle: Vec<TcpStream> = (0..256).map(|_| server.connect()).collect();
    let refused = server.get("/g/web/index.html");
    assert!(status_line(&refused).contains("503"), "{refused}");
    assert!(refused.to_lowercase().contains("retry-after"), "{refused}");
    drop(idle);
}

#[test]
fn an_idle_or_slow_client_is_cut_off_by_the_header_time_limit() {
    let tmp = site();
    let server = Server::start(tmp.path());
    let idle = server.connect();
    let mut slow = server.connect();
    slow.set_read_timeout(Some(Duration::from_millis(250))).unwrap();
    // One byte of a request line every quarter second, for at most 20 seconds.
    let mut closed = false;
    for byte in b"GET /g/web/index.html".iter().cycle().take(80) {
        if slow.write_all(&[*byte]).is_err() {
            closed = true;
            break;
        }
        match slow.read(&mut [0; 64]) {
            Ok(_) => {
                closed = true;
                break;
            }
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
            }
            Err(_) => {
                closed = true;
                break;
            }
        }
    }
    assert!(closed, "the server kept a request line that never ended open for 20 s");
    // The client that sent nothing was cut off too (the read ends rather than times out).
    let mut idle = idle;
    let mut rest = Vec::new();
    let ended = idle.read_to_end(&mut rest);
    assert!(ended.is_ok(), "an idle connection was kept open: {ended:?}");
    let page = server.get("/g/web/index.html");
    assert!(status_line(&page).contains("200"), "{page}");
}

#[test]
fn an_endless_request_line_is_refused_without_growing_memory() {
    let tmp = site();
    let server = Server::start(tmp.path());
    let before = server.status("VmHWM");
    let mut stream = server.connect();
    stream.set_write_timeout(Some(Duration::from_secs(5))).unwrap();
    let chunk = vec![b'A'; 64 * 1024];
    let mut sent = 0usize;
    stream.write_all(b"GET /").unwrap();
    // At most 32 MiB of a request line that never ends.
    while sent < 32 << 20 {
        match stream.write(&chunk) {
            Ok(n) => sent += n,
            Err(_) => break,
        }
    }
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let grown = server.status("VmHWM").saturating_sub(before);
    assert!(sent < 32 << 20, "the server took all {sent} bytes of one request line");
    assert!(grown < 8 * 1024, "the server grew by {grown} KiB for one request line");
    let page = server.get("/g/web/index.html");
    assert!(status_line(&page).contains("200"), "{page}");
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_out_of_the_web_folder_is_refused() {
    let tmp = site();
    let web = tmp.path().join("dist/g/web");
    std::os::unix::fs::symlink(tmp.path().join("secret.txt"), web.join("leak.txt"))
        .unwrap();
    std::os::unix::fs::symlink(tmp.path(), web.join("up")).unwrap();
    let server = Server::start(tmp.path());
    for path in ["/g/web/leak.txt", "/g/web/up/secret.txt"] {
        let answer = server.get(path);
        assert!(status_line(&answer).contains("403"), "{path}: {answer}");
        assert!(!answer.contains("the secret"), "{path}: {answer}");
    }
}

#[test]
fn paths_that_climb_out_of_the_web_folder_are_refused() {
    let tmp = site();
    let server = Server::start(tmp.path());
    for path in [
        "/g/web/../../secret.txt",
        "/g/web/%2e%2e/%2e%2e/secret.txt",
        "/g/web/..%2f..%2fsecret.txt",
        "/g/web/%2E%2E/%2E%2E/secret.txt",
        "/g/web/..\\..\\secret.txt",
        "/../secret.txt",
    ] {
        let answer = server.get(path);
        let status = status_line(&answer);
        assert!(
            status.contains("404") || status.contains("403") || status.contains("400"),
            "{path}: {answer}"
        );
        assert!(!answer.contains("the secret"), "{path}: {answer}");
    }
}
