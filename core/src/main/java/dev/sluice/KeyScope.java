package dev.sluice;

/** What a rule counts on: which part of a request (user, API) makes the key its limits keep state for. */
public enum KeyScope {
    /** One state per (user, API) pair: the default. */
    USER_API,
    /** One state per user, across all APIs. */
    USER,
    /** One state per API, across all users. */
    API,
    /** One state for every request the rule applies to. */
    GLOBAL
}
