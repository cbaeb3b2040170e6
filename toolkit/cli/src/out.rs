//! Writing to standard output and standard error without panicking: a write that fails
//! (a reader that closed the pipe) is an error, which `main` turns into a quiet exit 0.

/// `println!` that returns the write's `io::Result` instead of panicking.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)
    }};
}

/// `eprintln!` that returns the write's `io::Result` instead of panicking.
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stderr().lock(), $($arg)*)
    }};
}

pub(crate) use {errln, outln};

/// Whether an error, or any error it wraps, is a write to a closed pipe.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        let io = e.downcast_ref::<std::io::Error>().map(std::io::Error::kind);
        let json = e.downcast_ref::<serde_json::Error>().and_then(|j| j.io_error_kind());
        io.or(json) == Some(std::io::ErrorKind::BrokenPipe)
    })
}
