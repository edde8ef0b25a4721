package dev.sluice.servlet;

class TomcatSluiceFilterTest extends SluiceFilterContract {
    @Override
    EmbeddedServer newServer() {
        return new TomcatServer();
    }
}
