"""The project file's layout (pydantic), its conversion to and from the model, and its migrations."""
