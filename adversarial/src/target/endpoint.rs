//! Endpoints under attack: what the campaign needs to make one. The
//! scenarios (`crate::scenario`) are conversations built for the
//! endpoint's configuration, each with one lie told across its packets.

use crate::scenario::Connection;

/// An endpoint of reliable 1.0 under attack: `link`'s, or yours.
pub trait EndpointTarget: Send + Sync {
    /// A short name: used on the command line and in the tables.
    fn name(&self) -> &'static str;

    /// One line on what it is.
    fn about(&self) -> &'static str;

    /// The configuration it runs with; the scenarios are built for it.
    fn config(&self) -> link::Config;

    /// A fresh endpoint, its peer's first packet expected at sequence 0.
    fn make(&self) -> Box<dyn Connection>;

    /// Whether its endpoints can be made for any configuration
    /// ([`EndpointTarget::make_with`]): then each conversation draws one
    /// ([`crate::configs`]); else every conversation uses
    /// [`EndpointTarget::config`]. False unless a target says so.
    fn draws_configs(&self) -> bool {
        false
    }

    /// A fresh endpoint for `config` (one a conversation drew); the
    /// default ignores it and makes one for its own.
    fn make_with(&self, config: &link::Config) -> Box<dyn Connection> {
        let _ = config;
        self.make()
    }
}

/// An endpoint target built by [`endpoint`].
pub struct Made<F> {
    name: &'static str,
    about: &'static str,
    config: link::Config,
    make: F,
    draws: bool,
}

/// The endpoint target called `name`, whose endpoints `make` builds for
/// `config`, or for a configuration each conversation draws around it
/// (unless [`Made::own_config_only`] says not to):
///
/// ```
/// let target = adversarial::target::endpoint("link", adversarial::scenario::config(), |config| {
///     link::Endpoint::new(config.clone(), 0.0).expect("a valid configuration")
/// });
/// # let _ = target;
/// ```
pub fn endpoint<C, F>(name: &'static str, config: link::Config, make: F) -> Made<F>
where
    C: Connection + 'static,
    F: Fn(&link::Config) -> C + Send + Sync,
{
    Made {
        name,
        about: "",
        config,
        make,
        draws: true,
    }
}

impl<F> Made<F> {
    /// One line on what it is, for `targets` and the tables.
    #[must_use]
    pub const fn about(mut self, about: &'static str) -> Self {
        self.about = about;
        self
    }

    /// Every conversation with the target's own configuration, for an
    /// endpoint that works with no other (a peer built for fixed sizes).
    #[must_use]
    pub const fn own_config_only(mut self) -> Self {
        self.draws = false;
        self
    }
}

impl<C, F> EndpointTarget for Made<F>
where
    C: Connection + 'static,
    F: Fn(&link::Config) -> C + Send + Sync,
{
    fn name(&self) -> &'static str {
        self.name
    }

    fn about(&self) -> &'static str {
        self.about
    }

    fn config(&self) -> link::Config {
        self.config.clone()
    }

    fn make(&self) -> Box<dyn Connection> {
        Box::new((self.make)(&self.config))
    }

    fn draws_configs(&self) -> bool {
        self.draws
    }

    fn make_with(&self, config: &link::Config) -> Box<dyn Connection> {
        Box::new((self.make)(config))
    }
}
