// Long work run on a helper thread while the calling thread waits and polls: the part of the
// bindings' without_gil (bindings/common.hpp) that needs no Python.
//
// Helper threads are kept between calls: starting a thread costs more than a small engine call
// (tens of microseconds, hundreds on a loaded machine). A job never waits for another: when no
// helper is idle a new one starts and stays. A forked child starts afresh (the parent's helpers are
// not in it).
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <type_traits>
#include <utility>

#include <unistd.h>

#include "core/interrupt.hpp"

namespace mh {

namespace detail {

class HelperThreads {
public:
    static void run(std::function<void()> job) {
        // never destroyed: helpers may outlive static destruction
        static std::atomic<HelperThreads*> current{new HelperThreads};
        HelperThreads* helpers = current.load();
        if (helpers->pid_ != ::getpid()) {
            HelperThreads* fresh = new HelperThreads;
            if (current.compare_exchange_strong(helpers, fresh)) {
                helpers = fresh;
            } else {
                delete fresh;  // another caller of this child got there first; `helpers` is its
            }
        }
        helpers->submit(std::move(job));
    }

private:
    void submit(std::function<void()> job) {
        std::lock_guard<std::mutex> lock(mutex_);
        jobs_.push_back(std::move(job));
        if (jobs_.size() > idle_) {
            std::thread([this] { loop(); }).detach();
        } else {
            wake_.notify_one();
        }
    }

    void loop() {
        std::unique_lock<std::mutex> lock(mutex_);
        for (;;) {
            ++idle_;
            wake_.wait(lock, [this] { return !jobs_.empty(); });
            --idle_;
            std::function<void()> job = std::move(jobs_.front());
            jobs_.pop_front();
            lock.unlock();
            job();
            lock.lock();
        }
    }

    const pid_t pid_ = ::getpid();
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::function<void()>> jobs_;
    std::size_t idle_ = 0;
};

}  // namespace detail

// Runs `work` on a helper thread, armed for the interrupts requested from now on and for `stop`
// (core/interrupt.hpp; nullptr: no flag), and returns its result or rethrows its exception. Until
// it is done the calling thread calls poll() every `every`; poll may call request_interrupt() or
// raise `stop` to stop the work.
template <class Work, class Poll>
auto run_on_helper(Work&& work, std::chrono::milliseconds every, Poll&& poll,
                   const std::atomic<bool>* stop = nullptr) {
    using Result = std::decay_t<decltype(work())>;
    std::optional<Result> result;
    std::exception_ptr error;
    const Arming arming{interrupt_epoch(), stop};
    std::mutex mutex;
    std::condition_variable finished;
    bool done = false;
    detail::HelperThreads::run([&] {
        {
            InterruptScope scope(arming);
            try {
                result.emplace(work());
            } catch (...) {
                error = std::current_exception();
            }
        }
        // the last touch of this call's state: the caller returns once it sees `done`
        std::lock_guard<std::mutex> lock(mutex);
        done = true;
        finished.notify_one();
    });
    std::unique_lock<std::mutex> lock(mutex);
    while (!finished.wait_for(lock, every, [&] { return done; })) {
        lock.unlock();
        poll();
        lock.lock();
    }
    lock.unlock();
    if (error) std::rethrow_exception(error);
    return std::move(*result);
}

}  // namespace mh
