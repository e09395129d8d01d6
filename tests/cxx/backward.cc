// backward.cc — green-c++ finds the headers g++ keeps in include/c++/
// backward (<strstream>, deprecated but still used by old programs), as
// g++ does: its specs search them after the target's headers.
#include <strstream>
#include <thread>
#include "check.h"

int main()
{
	std::ostrstream o;
	std::thread t([&o] { o << "thread " << 7 << std::ends; });
	t.join();
	CHECK(std::string(o.str()) == "thread 7");
	o.freeze(false);
	OK("strstream");
	return 0;
}
