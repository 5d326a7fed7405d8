//! The adversarial harness: malicious packet generators and the campaign
//! that proves a reader refuses them cleanly. Built in a later step on top
//! of the finished codec; see the project README.
