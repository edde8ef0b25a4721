/** A modular application that uses Sluice from the module path, by its module name. */
module sluice.example {
    requires dev.sluice.core;
}
