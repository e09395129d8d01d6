// uncaught.cc — an exception that no frame of its thread catches: the
// search runs through the thread's start and ends there, and
// std::terminate calls the handler (which exits 3 after saying so).
#include <cstdlib>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <thread>
#include <unistd.h>

static void handler()
{
	std::printf("terminate called in the thread\n");
	std::fflush(stdout);
	_exit(3);
}

static void inner() { std::this_thread::yield(); throw std::logic_error("nobody catches this"); }

int main()
{
	std::set_terminate(handler);
	std::thread t(inner);
	t.join();
	std::printf("join returned\n");
	return 0;
}
