package dev.sluice.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

class PathNormalizerTest {

    private static String n(String raw) {
        return PathNormalizer.normalize(raw);
    }

    @Test
    void trailingSlashIsTheSamePath() {
        assertEquals("/pay", n("/pay/"));
    }

    @Test
    void dotSegmentsAreRemoved() {
        assertEquals("/pay", n("/pay/../pay"));
        assertEquals("/pay", n("/x/./y/../../pay"));
        assertEquals("/pay", n("/../../pay"));
        assertEquals("/pay", n("/pay/."));
    }

    @Test
    void duplicateSlashesCollapse() {
        assertEquals("/pay", n("//pay"));
        assertEquals("/pay/now", n("/pay///now//"));
    }

    @Test
    void encodedUnreservedCharactersAreDecoded() {
        assertEquals("/pay", n("/p%61y"));
        assertEquals("/pay", n("/%70%61%79"));
        assertEquals("/a-b_c~d.e", n("/a%2Db%5fc%7Ed%2ee"));
    }

    @Test
    void encodedDotSegmentsAreRemovedLikePlainOnes() {
        assertEquals("/pay", n("/x/%2e%2E/pay"));
        assertEquals("/pay", n("/x/.%2E/pay"));
    }

    @Test
    void encodedSlashStaysDistinctFromASeparator() {
        assertEquals("/a%2Fb", n("/a%2fb"));
        assertNotEquals(n("/a/b"), n("/a%2Fb"));
        assertEquals("/a%2F..", n("/a%2F.."));
    }

    @Test
    void caseIsKeptUnlessFolded() {
        assertEquals("/PAY", n("/PAY"));
        assertNotEquals(n("/pay"), n("/PAY"));
        assertEquals("/pay", PathNormalizer.normalize("/PAY", true));
        assertEquals("/pay/a%2Fb", PathNormalizer.normalize("/P%41Y/a%2fb", true));
    }

    @Test
    void queryAndFragmentAreNotPartOfThePath() {
        assertEquals("/pay", n("/pay?x=1/../y"));
        assertEquals("/pay", n("/pay#top"));
    }

    @Test
    void charactersNotAllowedRawAreEncodedLikeTheirEncoding() {
        assertEquals(n("/a%20b"), n("/a b"));
        assertEquals("/caf%C3%A9", n("/café"));
        assertEquals(n("/caf%c3%a9"), n("/café"));
        assertEquals("/%F0%9F%98%80", n("/\uD83D\uDE00"));
        assertEquals("/100%25", n("/100%"));
        assertEquals("/%25zz", n("/%zz"));
    }

    @Test
    void pathParametersAreDroppedButAnEncodedSemicolonIsKept() {
        assertEquals("/pay", n("/pay;jsessionid=1"));
        assertEquals("/pay/now", n("/pay;a=1/now;b"));
        assertEquals("/pay", n("/pay;x/?q=1"));
        assertEquals("/pay%3Bx", n("/pay%3bx"));
        assertEquals("/pay", n("/x;y/../pay"));
    }

    @Test
    void rootAndEmptyAreTheRoot() {
        assertEquals("/", n(""));
        assertEquals("/", n("/"));
        assertEquals("/", n("//./.."));
    }

    @Test
    void reportsAShortBufferInsteadOfOverflowing() {
        assertEquals(-1, PathNormalizer.normalize("/abcdef", 0, 7, false, new byte[4]));
    }
}
