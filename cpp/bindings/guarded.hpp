// The boundary between the core and JavaScript: whatever C++ throws inside a binding (an
// allocation that fails, a library's exception) is caught here and returned as a message, so
// that no exception unwinds through JavaScript, where it would skip the core's destructors.
// (The wasm modules are built with -fwasm-exceptions, CMakeLists.txt, so that catching works.)
#pragma once

#include <exception>
#include <new>
#include <string>

namespace attn::bindings {

// work() returns "" or a message; so does guarded, for anything work() throws as well.
template <typename Work>
std::string guarded(Work&& work) {
    try {
        return work();
    } catch (const std::bad_alloc&) {
        return "out of memory: the WebAssembly module's memory is full (dispose of trainers you no longer use)";
    } catch (const std::exception& error) {
        return std::string("the engine failed: ") + error.what();
    } catch (...) {
        return "the engine failed";
    }
}

}  // namespace attn::bindings
