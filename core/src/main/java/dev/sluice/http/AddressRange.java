package dev.sluice.http;

import java.util.Arrays;
import java.util.Objects;

/** A CIDR block such as {@code 10.0.0.0/8} or {@code 2001:db8::/32}; a bare address is a block of one. */
public final class AddressRange {

    private final byte[] network;
    private final int length;
    private final int prefixBits;

    private AddressRange(byte[] network, int length, int prefixBits) {
        this.network = network;
        this.length = length;
        this.prefixBits = prefixBits;
    }

    /**
     * Parses {@code address/prefix} or {@code address}.
     *
     * @throws IllegalArgumentException naming the text when it is not a literal address or the prefix is out of range
     */
    public static AddressRange parse(String cidr) {
        Objects.requireNonNull(cidr, "address range must not be null");
        int slash = cidr.indexOf('/');
        String addr = slash < 0 ? cidr : cidr.substring(0, slash);
        byte[] bytes = new byte[16];
        int len = IpAddresses.parse(addr, bytes);
        if (len == IpAddresses.INVALID) {
            throw new IllegalArgumentException("trusted proxy '" + cidr
                    + "' must be an IPv4 or IPv6 address literal, optionally with /prefix");
        }
        int max = len * 8;
        int prefix = max;
        if (slash >= 0) {
            try {
                prefix = Integer.parseInt(cidr.substring(slash + 1));
            } catch (NumberFormatException e) {
                prefix = -1;
            }
            if (prefix < 0 || prefix > max) {
                throw new IllegalArgumentException("prefix of trusted proxy '" + cidr + "' must be 0 to " + max
                        + " bits");
            }
        }
        IpAddresses.mask(bytes, len, prefix);
        return new AddressRange(Arrays.copyOf(bytes, len), len, prefix);
    }

    /** Whether {@code address[0, length)} (4 or 16 bytes) lies in this block. */
    public boolean contains(byte[] address, int length) {
        if (length != this.length) {
            return false;
        }
        int full = prefixBits / 8;
        for (int i = 0; i < full; i++) {
            if (address[i] != network[i]) {
                return false;
            }
        }
        int rest = prefixBits % 8;
        if (rest == 0) {
            return true;
        }
        int m = (0xff << (8 - rest)) & 0xff;
        return ((address[full] ^ network[full]) & m) == 0;
    }

    @Override
    public String toString() {
        return IpAddresses.format(network, length, prefixBits);
    }
}
