/*
 * forkworker — fork from a program that never calls pthread_atfork,
 * while a second thread waits on a semaphore.  The child has only the
 * thread that forked (POSIX): posting the semaphore there and yielding
 * must not run the parent's worker in the child.  Exit status 0 when
 * that holds (the child exits 0), 1 otherwise; prints what each side saw.
 */
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static sem_t go, parked;
static pid_t parent;

static void *worker(void *arg)
{
	sem_post(&parked);
	sem_wait(&go);
	if (getpid() != parent) {
		printf("the parent's worker ran in the child\n");
		fflush(stdout);
		_exit(3);
	}
	return 0;
}

int main(void)
{
	pthread_t t;
	pid_t pid;
	int st;

	parent = getpid();
	sem_init(&go, 0, 0);
	sem_init(&parked, 0, 0);
	if (pthread_create(&t, 0, worker, 0)) return 1;
	sem_wait(&parked);
	for (int i = 0; i < 3; i++) sched_yield();   /* the worker now waits on go */
	fflush(stdout);
	pid = fork();
	if (pid < 0) return 1;
	if (!pid) {
		sem_post(&go);
		for (int i = 0; i < 3; i++) sched_yield();
		_exit(0);
	}
	if (waitpid(pid, &st, 0) != pid) return 1;
	sem_post(&go);
	pthread_join(t, 0);
	printf("child exit status %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	return !(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}
