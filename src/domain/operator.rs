//! Who runs the exchange (issue 22): operator roles and the actor an audit entry names. Pure.

use std::fmt;

/// What an operator may do; each role may do everything the ones below it may.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// Reads orders, answers messages, adds notes.
    Support,
    /// Also acts on orders, currencies, incidents and payouts.
    Operator,
    /// Also manages operators and settings.
    Owner,
}

impl Role {
    pub fn parse(text: &str) -> Option<Role> {
        match text {
            "support" => Some(Role::Support),
            "operator" => Some(Role::Operator),
            "owner" => Some(Role::Owner),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Support => "support",
            Role::Operator => "operator",
            Role::Owner => "owner",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Who did something an audit entry records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Actor {
    /// A script with the operator's bearer token (`FERRY_ADMIN_TOKEN`): the owner of its acts.
    Token,
    /// The `ferry` command on the server, run by a user of that machine.
    Cli { login: String },
    /// An operator signed in to the console.
    User {
        id: String,
        email: String,
        role: Role,
    },
}

impl Actor {
    /// The actor as the audit log stores it (`token`, `cli`, `user:<id>`).
    pub fn key(&self) -> String {
        match self {
            Actor::Token => "token".into(),
            Actor::Cli { .. } => "cli".into(),
            Actor::User { id, .. } => format!("user:{id}"),
        }
    }

    /// The role the actor acts with.
    pub fn role(&self) -> Role {
        match self {
            Actor::Token | Actor::Cli { .. } => Role::Owner,
            Actor::User { role, .. } => *role,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_are_ordered_and_read_back_from_their_names() {
        assert!(Role::Support < Role::Operator && Role::Operator < Role::Owner);
        for role in [Role::Support, Role::Operator, Role::Owner] {
            assert_eq!(Role::parse(role.as_str()), Some(role));
        }
        assert_eq!(Role::parse("admin"), None);
        assert_eq!(Role::parse("Owner"), None);
    }

    #[test]
    fn scripts_and_the_command_line_act_as_owners() {
        assert_eq!(Actor::Token.role(), Role::Owner);
        let cli = Actor::Cli {
            login: "root@host".into(),
        };
        assert_eq!((cli.key().as_str(), cli.role()), ("cli", Role::Owner));
        let user = Actor::User {
            id: "u1".into(),
            email: "ops@example.com".into(),
            role: Role::Support,
        };
        assert_eq!(
            (user.key().as_str(), user.role()),
            ("user:u1", Role::Support)
        );
    }
}
