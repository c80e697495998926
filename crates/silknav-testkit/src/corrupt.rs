//! Ways to break a valid file on purpose.
