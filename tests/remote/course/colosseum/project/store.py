"""The agent registry of a Colosseum Survival project (written for arena's tests in the
style of the course's template): registering a name twice is an error, as there."""

AGENT_REGISTRY = {}


def register_agent(agent_name=""):
    def decorator(cls):
        if agent_name in AGENT_REGISTRY:
            raise AssertionError(f"Agent {AGENT_REGISTRY[agent_name]} is already registered.")
        AGENT_REGISTRY[agent_name] = cls
        return cls

    return decorator
