package dev.sluice.http;

import java.util.List;

/**
 * What a key resolver may read of an HTTP request, whatever the server: each integration adapts its own request
 * type to this view.
 */
public interface HttpRequestView {

    /** The request path as received, before any decoding, without the query; never used as a key as it is. */
    String rawPath();

    /** The address of the peer of the connection (a proxy, when there is one), as a literal such as {@code 192.0.2.7}. */
    String peerAddress();

    /** The name of the principal the server authenticated for this request, or null when there is none. */
    String principal();

    /** Every value of the header field {@code name} (case-insensitive), in the order received; empty when absent. */
    List<String> headers(String name);
}
